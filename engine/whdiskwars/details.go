package whdiskwars

import (
	"fmt"
	"strings"

	"tableref/engine"
)

// Details is what the ruleset reports under "details" in the analysis
// report, beyond the spec's fields. Field names are part of the JSON
// format (docs/whdiskwars.md).
type Details struct {
	// FirstPlayer is the layout's first_player: the player whose choice
	// the order is.
	FirstPlayer string `json:"first_player,omitempty"`
	// OrderFrom is "engagement_order" when the layout gave the first
	// player's order, "default" otherwise.
	OrderFrom string `json:"order_from"`
	// Order lists the engagements in the order they were resolved.
	Order []string `json:"order"`
	// Scrums are the groups of engagements linked by embattled disks.
	Scrums [][]string `json:"scrums,omitempty"`
	// Cycles are groups of engagements whose resolve_before constraints go
	// round; Overruled the constraints the order had to break in them.
	Cycles    [][]string  `json:"cycles,omitempty"`
	Overruled [][2]string `json:"overruled,omitempty"`
	// NewEngagements appeared when casualties were removed; they are not
	// resolved in this Melee Phase.
	NewEngagements []NewEngagementReport `json:"new_engagements,omitempty"`
	// Triggers lists every firing of a "when this disk engages" ability.
	Triggers []TriggerReport `json:"triggers,omitempty"`
	// EndPhase is the state after the End Phase.
	EndPhase EndPhaseReport `json:"end_phase"`
	// Corrections are the disks photographed past their limits and what
	// was applied to them before the first engagement, in layout order.
	Corrections []CorrectionReport `json:"corrections,omitempty"`
}

// CorrectionReport is a Correction by id: the damage and wounds the disk
// was photographed with, whether the wound its damage should already have
// made was applied (its damage removed), and whether it was removed as a
// casualty before anyone struck.
type CorrectionReport struct {
	Disk     string `json:"disk"`
	Damage   int    `json:"damage"`
	Wounds   int    `json:"wounds"`
	Wound    bool   `json:"wound_applied"`
	Casualty bool   `json:"casualty"`
}

// NewEngagementReport is a NewEngagement by ids.
type NewEngagementReport struct {
	Attacker string `json:"attacker"`
	Defender string `json:"defender"`
	// After and Step: the engagement and step whose casualties uncovered
	// it; After "" and Step "start" for a disk photographed past its limits
	// and removed before the first engagement (Resolve given the
	// photographed table's engagements only: Run finds them without it).
	After string `json:"after"`
	Step  string `json:"step"`
}

// TriggerReport is a Trigger by ids. After is empty for an engagement that
// existed before the Melee Phase, or, with Step "start", for one uncovered
// by the removal of a disk photographed past its limits.
type TriggerReport struct {
	Disk  string `json:"disk"`
	Enemy string `json:"enemy"`
	After string `json:"after,omitempty"`
	Step  string `json:"step,omitempty"`
}

// EndPhaseReport is what the End Phase does after the Melee Phase: the
// damage and activation tokens it removes, and the wounds that stay.
type EndPhaseReport struct {
	ClearedDamage     map[string]int `json:"cleared_damage"`
	ClearedActivation []string       `json:"cleared_activation"`
	Wounds            map[string]int `json:"wounds"`
}

func (a Analysis) details() Details {
	t := a.Table
	d := Details{FirstPlayer: t.Layout().FirstPlayer, OrderFrom: "default", Order: a.ids(a.Plan.Order)}
	if d.Order == nil {
		d.Order = []string{}
	}
	if a.Explicit {
		d.OrderFrom = orderOption
	}
	for _, s := range a.Split.Scrums() {
		d.Scrums = append(d.Scrums, a.ids(s))
	}
	for _, c := range a.Cycles {
		d.Cycles = append(d.Cycles, a.ids(c))
	}
	for _, p := range a.Plan.Overruled {
		d.Overruled = append(d.Overruled, [2]string{a.Split.Engagements[p[0]].ID, a.Split.Engagements[p[1]].ID})
	}
	for _, n := range a.Result.New {
		r := NewEngagementReport{Attacker: t.ID(n.Attacker), Defender: t.ID(n.Defender), Step: StepStart}
		if n.After >= 0 {
			r.After, r.Step = a.Split.Engagements[n.After].ID, n.Step.String()
		}
		d.NewEngagements = append(d.NewEngagements, r)
	}
	for _, tr := range a.Result.Triggers {
		r := TriggerReport{Disk: t.ID(tr.Disk), Enemy: t.ID(tr.Enemy)}
		switch {
		case tr.After >= 0:
			r.After, r.Step = a.Split.Engagements[tr.After].ID, tr.Step.String()
		case tr.AtStart:
			r.Step = StepStart
		}
		d.Triggers = append(d.Triggers, r)
	}
	d.EndPhase = a.endPhase()
	for _, c := range a.Result.Corrections {
		d.Corrections = append(d.Corrections, CorrectionReport{Disk: t.ID(c.Disk), Damage: c.Before.Damage, Wounds: c.Before.Wounds,
			Wound: c.Applied.Wounded, Casualty: c.Applied.Destroyed})
	}
	return d
}

// endPhase reports the End Phase on the disks still in play: "All tokens
// (except for Wound tokens) are removed from disks in play".
func (a Analysis) endPhase() EndPhaseReport {
	r := EndPhaseReport{ClearedDamage: map[string]int{}, ClearedActivation: []string{}, Wounds: map[string]int{}}
	for i, h := range a.Result.Health {
		if a.Result.Removed[i] {
			continue
		}
		id := a.Table.ID(i)
		if h.Damage > 0 {
			r.ClearedDamage[id] = h.Damage
		}
		if a.Fighters[i].Activated {
			r.ClearedActivation = append(r.ClearedActivation, id)
		}
		if h.Wounds > 0 {
			r.Wounds[id] = h.Wounds
		}
	}
	return r
}

func (a Analysis) endPhaseEvent() engine.Event {
	r := a.endPhase()
	var parts []string
	if len(r.ClearedDamage) > 0 {
		var ids []string // in layout order
		for i := range a.Table.Len() {
			if _, ok := r.ClearedDamage[a.Table.ID(i)]; ok {
				ids = append(ids, a.Table.ID(i))
			}
		}
		parts = append(parts, "damage removed from "+strings.Join(ids, ", "))
	}
	if len(r.ClearedActivation) > 0 {
		parts = append(parts, "activation tokens removed from "+strings.Join(r.ClearedActivation, ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "no damage or activation tokens to remove")
	}
	return engine.Event{Phase: "end", Kind: "end-phase",
		Text: fmt.Sprintf("End Phase: %s; wounds stay", strings.Join(parts, "; "))}
}
