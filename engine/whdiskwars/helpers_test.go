package whdiskwars

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// loadTable reads a layout from testdata.
func loadTable(t testing.TB, name string) *engine.Table {
	t.Helper()
	l, err := models.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return engine.NewTable(l)
}

// mustRun analyses a table and fails the test on error.
func mustRun(t *testing.T, tbl *engine.Table) Analysis {
	t.Helper()
	a, err := Run(tbl)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return a
}

// contactsOf lists the table's contacts as "top>bottom".
func contactsOf(tbl *engine.Table) []string {
	var out []string
	for _, c := range tbl.Contacts() {
		out = append(out, tbl.ID(c.Top)+">"+tbl.ID(c.Bottom))
	}
	slices.Sort(out)
	return out
}

// engagementsOf lists engagements as "E1: a,b > c,d".
func engagementsOf(o engine.Outcome) []string {
	var out []string
	for _, g := range o.Engagements {
		out = append(out, fmt.Sprintf("%s: %s > %s", g.ID, strings.Join(g.Attackers, ","), strings.Join(g.Defenders, ",")))
	}
	return out
}

// strikesOf lists the damage events as "E1 swift: from>to 6".
func strikesOf(o engine.Outcome) []string {
	var out []string
	for _, ev := range o.Log {
		if ev.Kind == "damage" {
			out = append(out, fmt.Sprintf("%s %s: %s>%s %d", ev.Engagement, ev.Step, ev.From, ev.To, ev.Amount))
		}
	}
	return out
}

// eventsOf lists the events of one kind as "E1 step: to".
func eventsOf(o engine.Outcome, kind string) []string {
	var out []string
	for _, ev := range o.Log {
		if ev.Kind == kind {
			out = append(out, fmt.Sprintf("%s %s: %s", ev.Engagement, ev.Step, ev.To))
		}
	}
	return out
}

func pairsOf(p [][2]string) []string {
	var out []string
	for _, x := range p {
		out = append(out, x[0]+"<"+x[1])
	}
	return out
}

// sameStrings compares two lists, nil and empty alike.
func sameStrings(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || slices.Equal(a, b))
}

func checkList(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !sameStrings(got, want) {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}

func checkMap(t *testing.T, what string, got, want map[string]int) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
		return
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: got %v, want %v", what, got, want)
			return
		}
	}
}

// builder makes small layouts in code: disks in a row or wherever placed.
type builder struct{ l models.Layout }

func newBuilder() *builder {
	return &builder{l: models.Layout{Version: models.Version, Source: "test"}}
}

// disk adds a creature of radius 2.5 cm at (x, y) with level z.
func (b *builder) disk(id, side string, x, y float64, z int, stats models.Stats, keywords ...string) *builder {
	b.l.Disks = append(b.l.Disks, models.Disk{ID: id, Side: side, Kind: models.KindCreature,
		X: models.Centimetres(x), Y: models.Centimetres(y), R: 2.5, Z: z, Stats: stats, Keywords: keywords})
	return b
}

// with changes the last disk added.
func (b *builder) with(f func(d *models.Disk)) *builder {
	f(&b.l.Disks[len(b.l.Disks)-1])
	return b
}

func (b *builder) table() *engine.Table { return engine.NewTable(b.l) }

// stats is a shorthand for strength, counter, toughness, stamina.
func stats(strength, counter, toughness, stamina int) models.Stats {
	return models.Stats{StatStrength: strength, StatCounter: counter, StatToughness: toughness, StatStamina: stamina}
}

// setOption sets a top-level field of the layout to raw JSON.
func setOption(l *models.Layout, name, raw string) {
	if l.Extra == nil {
		l.Extra = map[string]json.RawMessage{}
	}
	l.Extra[name] = json.RawMessage(raw)
}
