package engine

import (
	"encoding/json"
	"testing"

	"tableref/models"
)

// quietRuleset decides nothing: every field it returns is nil.
type quietRuleset struct{}

func (quietRuleset) Name() string                    { return "quiet" }
func (quietRuleset) Summary() string                 { return "decides nothing" }
func (quietRuleset) Analyze(*Table) (Outcome, error) { return Outcome{Hits: []Hit{{Token: "t1"}}}, nil }

// TestEveryReportCarriesTheSpecFields: the spec's report fields are ones
// "every consumer may rely on", so they are written under every ruleset,
// empty where the ruleset has nothing to say.
func TestEveryReportCarriesTheSpecFields(t *testing.T) {
	l, err := models.Parse([]byte(`{"version": 1, "disks": [{"id": "a", "x": 0, "y": 0, "r": 1}, {"id": "b", "x": 9, "y": 0, "r": 1}],
		"tokens": [{"id": "t1", "kind": "arrow", "x": 50, "y": 50, "r": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"rules": "", "distances": "", "contacts": `[]`, "engagements": `[]`, "embattled": `[]`,
		"resolve_before": `[]`, "hits": `[{"token":"t1","disks":[]}]`, "damage": `{}`,
		"melee": `{"casualties":[],"wounds":{},"damage":{}}`,
	}
	for _, rs := range []Ruleset{nil, quietRuleset{}} {
		rep, err := Analyze(l, rs)
		if err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		for field, w := range want {
			g, ok := got[field]
			switch {
			case !ok:
				t.Errorf("rules %s: report lacks %q:\n%s", rep.Rules, field, data)
			case w != "" && string(g) != w:
				t.Errorf("rules %s: %s = %s, want %s", rep.Rules, field, g, w)
			}
		}
		if _, ok := got["units"]; ok {
			t.Errorf("a centimetre layout's report says units: %s", got["units"])
		}
	}
}

func TestAPixelLayoutsReportSaysPixels(t *testing.T) {
	l, err := models.Parse([]byte(`{"version": 1, "units": "px", "disks": [{"id": "a", "x": 0, "y": 0, "r": 123.5}, {"id": "b", "x": 4000, "y": 0, "r": 123.5}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Analyze(l, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Units != "px" || len(rep.Distances) != 1 || rep.Distances[0].Edge != 3753 {
		t.Errorf("units %q distances %+v, want px and a-b 3753", rep.Units, rep.Distances)
	}
}
