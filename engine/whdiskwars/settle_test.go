package whdiskwars

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// "Damage stays on a disk until it equals or exceeds (at any time) that
// disk's Toughness. When this happens, all the damage tokens are removed
// and the disk suffers a Wound ... a disk is removed as a casualty
// whenever it has suffered more wounds than its Stamina." (shared/seeds/
// 001_5f6384918549c6a5.txt, "Damage"). Settle applies that to what already
// lies on a disk.
func TestSettle(t *testing.T) {
	tests := []struct {
		name        string
		h, want     Health
		wound, dead bool
		wasted      int
	}{
		{"damage below toughness stays", Health{Toughness: 5, Damage: 4}, Health{Toughness: 5, Damage: 4}, false, false, 0},
		{"damage equal to toughness is a wound, damage removed", Health{Toughness: 5, Stamina: 1, Damage: 5}, Health{Toughness: 5, Stamina: 1, Wounds: 1}, true, false, 0},
		{"damage beyond toughness is one wound, the rest wasted", Health{Toughness: 5, Stamina: 1, Damage: 12}, Health{Toughness: 5, Stamina: 1, Wounds: 1}, true, false, 7},
		{"the wound beyond stamina is a casualty", Health{Toughness: 5, Damage: 5}, Health{Toughness: 5, Wounds: 1}, true, true, 0},
		{"wounds beyond stamina without damage: a casualty", Health{Toughness: 5, Stamina: 1, Wounds: 2}, Health{Toughness: 5, Stamina: 1, Wounds: 2}, false, true, 0},
		{"wounds equal to stamina survive", Health{Toughness: 5, Stamina: 2, Wounds: 2, Damage: 1}, Health{Toughness: 5, Stamina: 2, Wounds: 2, Damage: 1}, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, a := tt.h.Settle()
			if got != tt.want || a.Wounded != tt.wound || a.Destroyed != tt.dead || a.Wasted != tt.wasted || a.Dealt != 0 || a.Taken != 0 {
				t.Errorf("got %+v %+v, want %+v wounded %v destroyed %v wasted %d", got, a, tt.want, tt.wound, tt.dead, tt.wasted)
			}
		})
	}
}

// oneOnOne: attacker a (x -3, z 2) pins defender d (x 0, z 1).
func oneOnOne(a, d models.Stats) *builder {
	return newBuilder().
		disk("a", "red", -3, 0, 2, a).
		disk("d", "blue", 0, 0, 1, d)
}

// A disk photographed past its limits at the start of the Melee Phase:
// "Damage stays on a disk until it equals or exceeds (at any time) that
// disk's Toughness" and "a disk is removed as a casualty whenever it has
// suffered more wounds than its Stamina" (shared/seeds/
// 001_5f6384918549c6a5.txt, "Damage"). The wound its damage should
// already have made is applied, and a disk with more wounds than its
// stamina is removed, before anyone strikes.
func TestMeleeDiskPhotographedPastItsLimits(t *testing.T) {
	five := 5
	tests := []struct {
		name       string
		b          *builder
		strikes    []string
		wounds     map[string]int
		damage     map[string]int
		casualties []string
		start      []string // log events of step "start", "kind to"
		correction []CorrectionReport
		tokens     []models.Token
		edit       func(b *builder) // beyond the last disk
	}{
		{
			// The example of the brief: 5 damage on toughness 5, then 5
			// more, is two wounds (one "at any time" before, one from the
			// strike), not one with 5 wasted.
			name: "5 damage on toughness 5 and then 5 more is two wounds",
			b: oneOnOne(stats(5, 1, 9, 0), stats(1, 0, 5, 2)).
				with(func(d *models.Disk) { d.Damage = 5 }),
			strikes: []string{"E1 normal: a>d 5"},
			wounds:  map[string]int{"d": 2},
			damage:  map[string]int{},
			start:   []string{"wound d"},
			correction: []CorrectionReport{
				{Disk: "d", Damage: 5, Wound: true},
			},
		},
		{
			name: "with stamina 1 the second wound is a casualty",
			b: oneOnOne(stats(5, 1, 9, 0), stats(1, 3, 5, 1)).
				with(func(d *models.Disk) { d.Damage = 5 }),
			strikes:    []string{"E1 normal: a>d 5", "E1 normal: d>a 3"},
			wounds:     map[string]int{},
			damage:     map[string]int{"a": 3},
			casualties: []string{"d"},
			start:      []string{"wound d"},
			correction: []CorrectionReport{{Disk: "d", Damage: 5, Wound: true}},
		},
		{
			name: "damage tokens at the toughness count alike",
			b: oneOnOne(stats(5, 1, 9, 0), stats(1, 0, 5, 2)).
				with(func(*models.Disk) {}),
			tokens:     []models.Token{{ID: "t1", Kind: TokenDamage, X: 1, Y: 0, R: 0.5, Value: &five}},
			strikes:    []string{"E1 normal: a>d 5"},
			wounds:     map[string]int{"d": 2},
			damage:     map[string]int{},
			start:      []string{"wound d"},
			correction: []CorrectionReport{{Disk: "d", Damage: 5, Wound: true}},
		},
		{
			// Immune and Resistant apply when damage is dealt, not to the
			// damage already lying on the disk.
			name: "an Immune disk with damage at its toughness still takes the wound",
			b: oneOnOne(stats(5, 1, 9, 0), stats(1, 0, 4, 1)).
				with(func(d *models.Disk) { d.Damage = 6; d.Keywords = []string{"immune:physical"} }),
			strikes:    []string{"E1 normal: a>d 5"},
			wounds:     map[string]int{"d": 1},
			damage:     map[string]int{},
			start:      []string{"wound d"},
			correction: []CorrectionReport{{Disk: "d", Damage: 6, Wound: true}},
		},
		{
			name: "a wound beyond stamina from its damage: a casualty before anyone strikes",
			b: oneOnOne(stats(5, 1, 9, 0), stats(1, 3, 5, 0)).
				with(func(d *models.Disk) { d.Damage = 5 }),
			wounds:     map[string]int{},
			damage:     map[string]int{},
			casualties: []string{"d"},
			start:      []string{"wound d", "casualty d"},
			correction: []CorrectionReport{{Disk: "d", Damage: 5, Wound: true, Casualty: true}},
		},
		{
			// a1 would strike d, d's counter would go to a1 (its target);
			// a1 is gone, so d strikes a2 instead and a1 is never struck.
			name: "more wounds than stamina: neither strikes nor is a target",
			b: twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0)).
				with(func(d *models.Disk) { d.Target = "a1" }),
			edit:       func(b *builder) { b.l.Disks[0].WoundsTaken = 1 },
			strikes:    []string{"E1 normal: a2>d 3", "E1 normal: d>a2 1"},
			wounds:     map[string]int{},
			damage:     map[string]int{"d": 3, "a2": 1},
			casualties: []string{"a1"},
			start:      []string{"casualty a1"},
			correction: []CorrectionReport{{Disk: "a1", Wounds: 1, Casualty: true}},
		},
		{
			name: "within its limits nothing is applied",
			b: oneOnOne(stats(2, 1, 9, 0), stats(1, 0, 5, 2)).
				with(func(d *models.Disk) { d.Damage = 4; d.WoundsTaken = 1 }),
			strikes: []string{"E1 normal: a>d 2"},
			// 4 + 2 reaches 5: a second wound, within stamina 2.
			wounds: map[string]int{"d": 2},
			damage: map[string]int{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.b.l.Tokens = tt.tokens
			if tt.edit != nil {
				tt.edit(tt.b)
			}
			o := mustRun(t, tt.b.table()).Outcome()
			checkList(t, "strikes", strikesOf(o), tt.strikes)
			checkMap(t, "wounds", o.Melee.Wounds, tt.wounds)
			checkMap(t, "damage", o.Melee.Damage, tt.damage)
			checkList(t, "casualties", o.Melee.Casualties, tt.casualties)
			var start []string
			for _, ev := range o.Log {
				if ev.Step == StepStart {
					start = append(start, ev.Kind+" "+ev.To)
				}
			}
			checkList(t, "start events", start, tt.start)
			got := o.Details.(Details).Corrections
			if fmt.Sprint(got) != fmt.Sprint(tt.correction) {
				t.Errorf("corrections: got %+v, want %+v", got, tt.correction)
			}
		})
	}
}

// The log and the warnings tell the user that the photographed table did
// not show the wound, name the disk and say what was applied; the
// warnings keep what they said before (damage, toughness, wounds,
// stamina).
func TestMeleeCorrectionIsToldInLogAndWarnings(t *testing.T) {
	b := oneOnOne(stats(5, 1, 9, 0), stats(1, 3, 5, 0)).with(func(d *models.Disk) { d.Damage = 6; d.Name = "Karl Franz" })
	o := mustRun(t, b.table()).Outcome()
	var texts []string
	for _, ev := range o.Log {
		if ev.Step == StepStart {
			texts = append(texts, ev.Text)
		}
	}
	wantLog := []string{
		"start: d (Karl Franz) was photographed with damage 6, at least its toughness 5, and without the wound that damage makes: it suffers that wound now, before anyone strikes (damage 6 removed, 1 of it beyond the toughness and wasted); wounds 1, stamina 0",
		"start: d (Karl Franz) has 1 wounds, more than its stamina 0, but was photographed still in play: it is removed as a casualty now, before anyone strikes; it neither strikes nor is struck",
	}
	checkList(t, "start log", texts, wantLog)
	wantWarnings := []string{
		"disk d (Karl Franz) starts with damage 6, at least its toughness 5: it should already have taken a wound; the wound is applied before anyone strikes (damage removed; wounds 1, stamina 0)",
		"disk d (Karl Franz) then has 1 wounds, more than its stamina 0: it should already be a casualty; it is removed before anyone strikes and neither strikes nor is struck; the engagements are those of the table without it",
	}
	checkList(t, "warnings", o.Warnings, wantWarnings)
	// Removed before the phase, the disk engaged no one when it began.
	if len(o.Engagements) != 0 {
		t.Errorf("engagements: got %+v, want none", o.Engagements)
	}

	b = oneOnOne(stats(5, 1, 9, 0), stats(1, 3, 5, 1)).with(func(d *models.Disk) { d.WoundsTaken = 2 })
	o = mustRun(t, b.table()).Outcome()
	checkList(t, "warnings", o.Warnings, []string{
		"disk d starts with 2 wounds, more than its stamina 1: it should already be a casualty; it is removed before anyone strikes and neither strikes nor is struck; the engagements are those of the table without it",
	})
}

// Figure 10's Swordsmen, photographed with more wounds than their stamina,
// should have been removed when they took their last wound, before the
// Melee Phase: Tyrion then lay on the Steam Tank when the phase began, an
// engagement "already established at the beginning of the Melee Phase",
// which is resolved (in the figure, where the Swordsmen fall during the
// scrum, it is not). Tyrion (strength 6) deals 6 to the Tank (toughness
// 7), which counters 3; the Tank, embattled, then attacks the Reavers (5
// against toughness 3: a casualty), whose counter of 2 brings it to 8
// damage: a wound, within its stamina 2.
func TestMeleeRemovalBeforeThePhaseUncoversAPinThatIsResolved(t *testing.T) {
	tbl := loadTable(t, "figure10.json")
	l := tbl.Layout().Clone()
	l.Disks[1].WoundsTaken = 1
	o := mustRun(t, engine.NewTable(l)).Outcome()
	d := o.Details.(Details)
	if len(d.NewEngagements) != 0 {
		t.Errorf("new engagements: got %+v, want none", d.NewEngagements)
	}
	wantTriggers := []TriggerReport{{Disk: "tyrion", Enemy: "tank"}}
	if fmt.Sprint(d.Triggers) != fmt.Sprint(wantTriggers) {
		t.Errorf("triggers: got %+v, want %+v", d.Triggers, wantTriggers)
	}
	var engaged []string
	for _, g := range o.Engagements {
		engaged = append(engaged, fmt.Sprintf("%s %v>%v", g.ID, g.Attackers, g.Defenders))
	}
	checkList(t, "engagements", engaged, []string{"E1 [tyrion]>[tank]", "E2 [tank]>[reavers]"})
	checkList(t, "strikes", strikesOf(o), []string{"E1 normal: tyrion>tank 6", "E1 normal: tank>tyrion 3", "E2 normal: tank>reavers 5", "E2 normal: reavers>tank 2"})
	checkList(t, "casualties", o.Melee.Casualties, []string{"swordsmen", "reavers"})
	checkMap(t, "wounds", o.Melee.Wounds, map[string]int{"tank": 1})
	checkList(t, "skipped", eventsOf(o, "skipped"), nil)
}

// The invariants of TestPropertiesOnRandomTables on random tables whose
// disks are photographed past their limits: damage up to twice the
// toughness, wounds up to one beyond the stamina. Besides them, no disk in
// an engagement stays in play with damage at or above its toughness or
// with more wounds than its stamina, and a disk removed before the first
// engagement is never struck and never strikes.
func TestPropertiesOnTablesPhotographedPastLimits(t *testing.T) {
	rng := rand.New(rand.NewPCG(2014, 11))
	var seen struct{ wounded, removed, uncovered int }
	for k := range 300 {
		l := randomTable(rng).Layout().Clone()
		for i := range l.Disks {
			d := &l.Disks[i]
			if rng.IntN(3) == 0 {
				d.Damage = rng.IntN(2*d.Stats[StatToughness] + 1)
				d.WoundsTaken = rng.IntN(d.Stats[StatStamina] + 2)
			}
		}
		tbl := engine.NewTable(l)
		a, err := Run(tbl)
		if err != nil {
			t.Fatalf("table %d: %v", k, err)
		}
		o := a.Outcome()
		name := fmt.Sprintf("table %d", k)
		// The engagements are those of the table without the disks
		// removed before the phase.
		gone := map[string]bool{}
		for _, c := range a.Result.Corrections {
			if c.Applied.Destroyed {
				gone[tbl.ID(c.Disk)] = true
			}
		}
		without := l.Clone()
		without.Disks = slices.DeleteFunc(without.Disks, func(d models.Disk) bool { return gone[d.ID] })
		checkSplit(t, name, engine.NewTable(without), o)
		before := EnemyPins(tbl)
		for top, bs := range a.Relation.Pins {
			for _, b := range bs {
				if !before.Has(top, b) {
					seen.uncovered++
				}
			}
		}
		checkOrder(t, name, a)
		checkMelee(t, name, a, o)
		for i, h := range a.Result.Health {
			engaged := a.Split.AttackIn[i]+a.Split.DefendIn[i] > -2
			if engaged && !a.Result.Removed[i] && h.Wounds > h.Stamina {
				t.Fatalf("%s: %s stays in play with %d wounds, more than its stamina %d", name, tbl.ID(i), h.Wounds, h.Stamina)
			}
		}
		for _, n := range a.Result.New {
			if n.After < 0 {
				t.Fatalf("%s: %+v reported as uncovered before the first engagement: Run finds the engagements without the disks removed then", name, n)
			}
		}
		for _, c := range a.Result.Corrections {
			if c.Applied.Wounded {
				seen.wounded++
			}
			if !c.Applied.Destroyed {
				continue
			}
			seen.removed++
			id := tbl.ID(c.Disk)
			for _, ev := range o.Log {
				if ev.Kind == "damage" && (ev.From == id || ev.To == id) {
					t.Fatalf("%s: %s, removed before the first engagement, takes part in %q", name, id, ev.Text)
				}
			}
		}
		if !strings.Contains(strings.Join(a.Warnings, "\n"), "should already") && len(a.Result.Corrections) > 0 {
			t.Fatalf("%s: corrections %+v without a warning", name, a.Result.Corrections)
		}
	}
	if seen.wounded == 0 || seen.removed == 0 || seen.uncovered == 0 {
		t.Errorf("random tables reached too little: %+v", seen)
	}
	t.Logf("random tables photographed past their limits: %+v", seen)
}
