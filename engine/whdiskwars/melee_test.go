package whdiskwars

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"tableref/models"
)

// twoOnOne: attackers a1 (x -4) and a2 (x 4) pin defender d (x 0).
func twoOnOne(a1, a2, d models.Stats, dKeywords ...string) *builder {
	return newBuilder().
		disk("a1", "red", -4, 0, 2, a1).
		disk("a2", "red", 4, 0, 2, a2).
		disk("d", "blue", 0, 0, 1, d, dKeywords...)
}

// "if more than one disk attack the same enemy, add their damage together
// before reducing it for any eventual Resistant keyword, and most
// importantly before checking if a wound is inflicted."
func TestMeleeDamageIsSummedBeforeResistant(t *testing.T) {
	a := mustRun(t, twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0), "resistant:physical").table())
	o := a.Outcome()
	// 3 + 3 = 6, halved 3: below toughness 4. Halving each (2 + 2) would wound.
	checkMap(t, "damage", o.Melee.Damage, map[string]int{"d": 3, "a1": 1})
	checkList(t, "resisted", eventsOf(o, "resisted"), []string{"E1 normal: d"})
}

func TestMeleeImmunePhysicalTakesNothing(t *testing.T) {
	o := mustRun(t, twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0), "Immune (Physical)").table()).Outcome()
	checkMap(t, "damage", o.Melee.Damage, map[string]int{"a1": 1})
	checkList(t, "immune", eventsOf(o, "immune"), []string{"E1 normal: d"})
}

// Two attackers in one step: simultaneous, so one wound however much they
// deal together ("any leftover damage is wasted").
func TestMeleeOneStepIsOneInstance(t *testing.T) {
	o := mustRun(t, twoOnOne(stats(5, 1, 5, 0), stats(5, 1, 5, 0), stats(1, 1, 4, 2)).table()).Outcome()
	checkMap(t, "wounds", o.Melee.Wounds, map[string]int{"d": 1})
	checkList(t, "casualties", o.Melee.Casualties, nil)
}

// "Disks that are destroyed before they have a chance to attack won't
// inflict their damage in the respective attack step", and a disk
// destroyed in an earlier engagement takes no part in a later one.
func TestMeleeDestroyedDisksDealNothing(t *testing.T) {
	t.Run("a slow defender killed in the normal step", func(t *testing.T) {
		o := mustRun(t, twoOnOne(stats(2, 1, 5, 0), stats(2, 1, 5, 0), stats(1, 9, 4, 0), "slow").table()).Outcome()
		checkList(t, "strikes", strikesOf(o), []string{"E1 normal: a1>d 2", "E1 normal: a2>d 2"})
		checkList(t, "casualties", o.Melee.Casualties, []string{"d"})
	})
	t.Run("an embattled disk killed where it defends does not attack", func(t *testing.T) {
		// top (z 3) pins mid (z 2), which pins low (z 1): E1 top>mid first.
		b := newBuilder().
			disk("top", "red", 0, 4, 3, stats(5, 1, 5, 0)).
			disk("mid", "blue", 0, 0, 2, stats(4, 1, 3, 0)).
			disk("low", "red", 0, -4, 1, stats(1, 1, 5, 0))
		o := mustRun(t, b.table()).Outcome()
		checkList(t, "strikes", strikesOf(o), []string{"E1 normal: top>mid 5", "E1 normal: mid>top 1"})
		checkList(t, "skipped", eventsOf(o, "skipped"), []string{"E2 : "})
	})
}

// "each attacking disk will deal its Strength damage to one of the disk it
// is pinning (the player controlling the disk chooses ...)": the choice is
// "target" (or "targets"), otherwise the documented default.
func TestMeleeTargets(t *testing.T) {
	// a pins d1 (x -4) and d2 (x 4).
	base := func() *builder {
		return newBuilder().
			disk("a", "red", 0, 0, 2, stats(3, 1, 9, 0)).
			disk("d1", "blue", -4, 0, 1, stats(0, 0, 5, 0)).
			disk("d2", "blue", 4, 0, 1, stats(0, 0, 5, 0))
	}
	tests := []struct {
		name string
		edit func(b *builder)
		want string
	}{
		{"default: equal need, first in layout order", func(*builder) {}, "E1 normal: a>d1 3"},
		{"default: the one closest to a wound", func(b *builder) { b.l.Disks[2].Damage = 2 }, "E1 normal: a>d2 3"},
		{"default: resistant needs about twice as much", func(b *builder) {
			b.l.Disks[0].Stats[StatToughness] = 9
			b.l.Disks[1].Keywords = []string{"resistant:physical"}
			b.l.Disks[1].Stats[StatToughness] = 3 // needs 5
			b.l.Disks[2].Stats[StatToughness] = 4 // needs 4
		}, "E1 normal: a>d2 3"},
		{"default: immune last", func(b *builder) { b.l.Disks[1].Keywords = []string{"immune:physical"} }, "E1 normal: a>d2 3"},
		{"target chosen", func(b *builder) { b.l.Disks[0].Target = "d2" }, "E1 normal: a>d2 3"},
		{"targets list: first eligible", func(b *builder) {
			b.l.Disks[0].Extra = map[string]json.RawMessage{FieldTargets: json.RawMessage(`["d2", "d1"]`)}
		}, "E1 normal: a>d2 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := base()
			tt.edit(b)
			o := mustRun(t, b.table()).Outcome()
			checkList(t, "strikes", strikesOf(o), []string{tt.want})
		})
	}
}

// An embattled disk makes two choices: one "target" for the attack, and a
// second in "targets" for the counter-attack.
func TestMeleeEmbattledDiskChoosesTwice(t *testing.T) {
	// p1 (x -4) and p2 (x 4) pin m; m pins l1 (y -4, x -2) and l2 (y -4, x 2).
	b := newBuilder().
		disk("p1", "red", -4, 0, 3, stats(1, 1, 9, 0)).
		disk("p2", "red", 4, 0, 3, stats(1, 1, 9, 0)).
		disk("m", "blue", 0, 0, 2, stats(2, 3, 9, 0)).
		with(func(d *models.Disk) {
			d.Target = "l2"
			d.Extra = map[string]json.RawMessage{FieldTargets: json.RawMessage(`["p2"]`)}
		}).
		disk("l1", "red", -2.5, -4, 1, stats(1, 1, 9, 0)).
		disk("l2", "red", 2.5, -4, 1, stats(1, 1, 9, 0))
	a := mustRun(t, b.table())
	if len(a.Warnings) != 0 {
		t.Errorf("warnings: got %q, want none", a.Warnings)
	}
	var got []string
	for _, s := range strikesOf(a.Outcome()) {
		if strings.Contains(s, " m>") {
			got = append(got, s)
		}
	}
	checkList(t, "m's strikes", got, []string{"E1 normal: m>p2 3", "E2 normal: m>l2 2"})
}

// "a disk in an engagement without the stats it needs gets an error
// naming the disk and the stat".
func TestMeleeMissingStatsAreErrorsNamingDiskAndStat(t *testing.T) {
	tests := []struct {
		name       string
		edit       func(b *builder)
		disk, stat string
	}{
		{"attacker without strength", func(b *builder) { delete(b.l.Disks[0].Stats, StatStrength) }, "a1", StatStrength},
		{"defender without counter", func(b *builder) { delete(b.l.Disks[2].Stats, StatCounter) }, "d", StatCounter},
		{"any fighter without toughness", func(b *builder) { delete(b.l.Disks[1].Stats, StatToughness) }, "a2", StatToughness},
		{"no stats at all", func(b *builder) { b.l.Disks[2].Stats = nil }, "d", StatCounter},
		{"negative strength", func(b *builder) { b.l.Disks[0].Stats[StatStrength] = -1 }, "a1", StatStrength},
		{"toughness zero", func(b *builder) { b.l.Disks[2].Stats[StatToughness] = 0 }, "d", StatToughness},
		{"absurd strength", func(b *builder) { b.l.Disks[1].Stats[StatStrength] = MaxStat + 1 }, "a2", StatStrength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0))
			tt.edit(b)
			_, err := Run(b.table())
			var se *StatError
			if !errors.As(err, &se) {
				t.Fatalf("got error %v, want a StatError", err)
			}
			if !strings.Contains(err.Error(), `"`+tt.disk+`"`) || !strings.Contains(err.Error(), `"`+tt.stat+`"`) {
				t.Errorf("got %q, want it to name disk %q and stat %q", err, tt.disk, tt.stat)
			}
		})
	}
	t.Run("a disk in no engagement needs no stats", func(t *testing.T) {
		b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0)).disk("far", "blue", 50, 50, 0, nil)
		mustRun(t, b.table())
	})
}

// "an unknown keyword is a warning in the report, not a crash"; so are
// choices the engine cannot follow.
func TestMeleeWarnings(t *testing.T) {
	tests := []struct {
		name string
		edit func(b *builder)
		want string
	}{
		{"unknown keyword", func(b *builder) { b.l.Disks[0].Keywords = []string{"berserk"} }, `unknown keyword "berserk"`},
		{"swift and slow", func(b *builder) { b.l.Disks[0].Keywords = []string{"swift", "slow"} }, "both swift and slow"},
		{"target not engaged", func(b *builder) { b.l.Disks[0].Target = "a2" }, "is not engaged with it"},
		{"target unknown", func(b *builder) { b.l.Disks[0].Target = "nobody" }, `target "nobody" is no disk`},
		{"starts wounded beyond stamina", func(b *builder) { b.l.Disks[2].WoundsTaken = 1 }, "should already be a casualty"},
		{"order names nothing", func(b *builder) { setOption(&b.l, "engagement_order", `["E9"]`) }, `"E9" names no engagement`},
		{"order names twice", func(b *builder) { setOption(&b.l, "engagement_order", `["E1", "a1"]`) }, "a second time"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0))
			tt.edit(b)
			o := mustRun(t, b.table()).Outcome()
			if !strings.Contains(strings.Join(o.Warnings, "\n"), tt.want) {
				t.Errorf("warnings: got %q, want one containing %q", o.Warnings, tt.want)
			}
		})
	}
}

func TestMeleeBadOptionsAreErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(b *builder)
		want string
	}{
		{"engagement_order not a list", func(b *builder) { setOption(&b.l, "engagement_order", `"E1"`) }, "engagement_order"},
		{"targets not a list", func(b *builder) { b.l.Disks[0].Extra = map[string]json.RawMessage{FieldTargets: json.RawMessage(`3`)} }, "targets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0))
			tt.edit(b)
			if _, err := Run(b.table()); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one naming %q", err, tt.want)
			}
		})
	}
}

// A disk with strength 0 deals nothing and logs nothing.
func TestMeleeZeroStrengthDealsNothing(t *testing.T) {
	o := mustRun(t, twoOnOne(stats(0, 1, 5, 0), stats(2, 1, 5, 0), stats(0, 0, 4, 0)).table()).Outcome()
	checkList(t, "strikes", strikesOf(o), []string{"E1 normal: a2>d 2"})
}

// Keywords of terrain and spell disks are not melee keywords: no warning.
func TestTerrainKeywordsAreNotWarned(t *testing.T) {
	b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 4, 0)).
		disk("hill", "", 40, 40, 0, nil, "impassable").with(func(d *models.Disk) { d.Kind = models.KindTerrain })
	if w := mustRun(t, b.table()).Warnings; len(w) != 0 {
		t.Errorf("warnings: got %q, want none", w)
	}
}
