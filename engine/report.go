package engine

import (
	"encoding/json"
	"fmt"

	"tableref/models"
)

// Ruleset decides what a table means under one game's rules. Rulesets sit
// side by side under engine/ and are listed by engine/rulesets.
type Ruleset interface {
	// Name is the name given to --rules ("diskwars", "whdiskwars").
	Name() string
	// Summary says in one line what the ruleset decides.
	Summary() string
	// Analyze reads the table's geometry and returns the ruleset's
	// findings. It must not change the table. Missing data the rules need
	// is an error naming the disk and the field.
	Analyze(t *Table) (Outcome, error)
}

// Outcome is what a ruleset adds to the geometry of a report.
type Outcome struct {
	// Hits, when not nil, replaces the geometric hits: which disks each
	// projectile hits as the ruleset reads the table (through reminder
	// spell disks, never terrain, say). The geometric ones stay in the
	// report as "geometry_hits".
	Hits          []Hit
	Engagements   []Engagement
	Embattled     []string
	ResolveBefore [][2]string
	Damage        map[string]int
	Melee         *Melee
	Log           []Event
	Warnings      []string
	// Details holds the ruleset's own findings, reported under "details".
	Details any
}

// Report is the analysis report of the spec (shared/spec/table-model.md):
// the geometry of a layout and what a ruleset made of it. In Go a nil
// field is one the ruleset has nothing to say about; in JSON every field
// of the spec is written, empty ([], {}) where nil (see MarshalJSON).
type Report struct {
	Rules string `json:"rules"`
	// Units is "px" when the layout is in pixels (detect without a
	// calibration): distances are then in pixels. Empty for centimetres.
	Units         string         `json:"units,omitempty"`
	Distances     []Distance     `json:"distances"`
	Contacts      []ContactIDs   `json:"contacts"`
	Engagements   []Engagement   `json:"engagements"`
	Embattled     []string       `json:"embattled"`
	ResolveBefore [][2]string    `json:"resolve_before"`
	Hits          []Hit          `json:"hits"`
	GeometryHits  []Hit          `json:"geometry_hits,omitzero"`
	Damage        map[string]int `json:"damage"`
	Melee         *Melee         `json:"melee"`
	Chains        [][]string     `json:"chains"`
	Touches       []Hit          `json:"touches"`
	Log           []Event        `json:"log,omitzero"`
	Warnings      []string       `json:"warnings,omitzero"`
	Details       any            `json:"details,omitempty"`
	// Table is the geometry the report was made from.
	Table *Table `json:"-"`
}

// MarshalJSON writes every field the spec's report has, so that every
// consumer may rely on them: [] for a list and {} for a map the ruleset
// left empty, and melee {"casualties": [], "wounds": {}, "damage": {}}.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report // without this method
	p := plain(r)
	p.Distances = orEmpty(p.Distances)
	p.Contacts = orEmpty(p.Contacts)
	// A copy: marshalling must not change the report it writes.
	p.Engagements = make([]Engagement, len(r.Engagements))
	for i, g := range r.Engagements {
		p.Engagements[i] = Engagement{g.ID, orEmpty(g.Attackers), orEmpty(g.Defenders)}
	}
	p.Embattled = orEmpty(p.Embattled)
	p.ResolveBefore = orEmpty(p.ResolveBefore)
	p.Hits = emptyHits(p.Hits)
	p.Touches = emptyHits(p.Touches)
	if p.GeometryHits != nil {
		p.GeometryHits = emptyHits(p.GeometryHits)
	}
	p.Damage = orEmptyMap(p.Damage)
	m := Melee{}
	if r.Melee != nil {
		m = *r.Melee
	}
	p.Melee = &Melee{orEmpty(m.Casualties), orEmptyMap(m.Wounds), orEmptyMap(m.Damage)}
	p.Chains = orEmpty(p.Chains)
	return json.Marshal(p)
}

// emptyHits returns a copy of hits with [] for no disks, and [] for nil.
func emptyHits(hits []Hit) []Hit {
	out := make([]Hit, len(hits))
	for i, h := range hits {
		out[i] = Hit{h.Token, orEmpty(h.Disks)}
	}
	return out
}

func orEmptyMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return m
}

// Distance is the edge-to-edge distance of two disks, rounded to 0.01 cm.
type Distance struct {
	A    string  `json:"a"`
	B    string  `json:"b"`
	Edge float64 `json:"edge_cm"`
}

// ContactIDs is a contact by disk ids: Top pins Bottom.
type ContactIDs struct {
	Top    string `json:"top"`
	Bottom string `json:"bottom"`
}

// Hit lists the disks a token hits (or touches).
type Hit struct {
	Token string   `json:"token"`
	Disks []string `json:"disks"`
}

// Engagement is a melee between attackers and defenders.
type Engagement struct {
	ID        string   `json:"id"`
	Attackers []string `json:"attackers"`
	Defenders []string `json:"defenders"`
}

// Melee is the outcome of resolving every engagement of a melee (combat)
// phase: the disks destroyed, and the wounds and damage on the others
// after the phase.
type Melee struct {
	Casualties []string       `json:"casualties"`
	Wounds     map[string]int `json:"wounds"`
	Damage     map[string]int `json:"damage"`
}

// Event is one step of a resolution, for the log a player reads: who dealt
// what to whom, in which engagement and step.
type Event struct {
	Phase      string `json:"phase,omitempty"`
	Engagement string `json:"engagement,omitempty"`
	Step       string `json:"step,omitempty"`
	From       string `json:"from,omitempty"`
	To         string `json:"to,omitempty"`
	Amount     int    `json:"amount,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Text       string `json:"text"`
}

// Analyze computes the geometry of the layout and applies the ruleset
// (nil for geometry alone).
func Analyze(l models.Layout, rs Ruleset) (Report, error) {
	t := NewTable(l)
	r := Geometry(t)
	if rs == nil {
		return r, nil
	}
	r.Rules = rs.Name()
	o, err := rs.Analyze(t)
	if err != nil {
		return Report{}, fmt.Errorf("%s rules: %w", rs.Name(), err)
	}
	// A ruleset decides these fields: an empty one is written empty, not
	// left out.
	r.Engagements = orEmpty(o.Engagements)
	r.Embattled = orEmpty(o.Embattled)
	r.ResolveBefore = orEmpty(o.ResolveBefore)
	r.Damage = o.Damage
	if r.Damage == nil {
		r.Damage = map[string]int{}
	}
	if o.Hits != nil {
		r.GeometryHits, r.Hits = r.Hits, o.Hits
	}
	r.Melee = o.Melee
	r.Log = o.Log
	r.Warnings = append(r.Warnings, o.Warnings...)
	r.Details = o.Details
	return r, nil
}

// Geometry returns the report's geometry fields for a table: every
// distance, the contacts, the contact chains and the tokens' touches and
// hits, under the rules name "geometry".
func Geometry(t *Table) Report {
	r := Report{Rules: "geometry", Table: t}
	if t.Layout().Units == models.UnitsPixels {
		r.Units = models.UnitsPixels
	}
	r.Distances = make([]Distance, 0, t.Len()*(t.Len()-1)/2)
	for i := range t.Len() {
		for j := i + 1; j < t.Len(); j++ {
			r.Distances = append(r.Distances, Distance{t.ID(i), t.ID(j), round2(float64(t.Edge(i, j)))})
		}
	}
	r.Contacts = []ContactIDs{}
	for _, c := range t.Contacts() {
		r.Contacts = append(r.Contacts, ContactIDs{t.ID(c.Top), t.ID(c.Bottom)})
	}
	r.Chains = [][]string{}
	for _, c := range t.Chains() {
		r.Chains = append(r.Chains, t.IDs(c))
	}
	r.Hits, r.Touches = []Hit{}, []Hit{}
	for k := range t.TokenLen() {
		tok := t.Token(k)
		r.Touches = append(r.Touches, Hit{tok.ID, t.IDs(t.Touches(k))})
		if tok.IsProjectile() {
			r.Hits = append(r.Hits, Hit{tok.ID, t.IDs(t.Hits(k))})
		}
	}
	r.Warnings = append(r.Warnings, t.Warnings()...)
	return r
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
