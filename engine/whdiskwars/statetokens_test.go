package whdiskwars

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"tableref/models"
)

// "all damage dealt during the Activation Phase is not removed from the
// disks when the Melee Phase begins ... it will add to the damage your
// troops will deal in close combat" (Melee, "Damage"). In
// testdata/tokens.json a damage token worth 3 and an activation token lie
// on Karl Franz (toughness 5, stamina 1) and nothing else: the
// Bloodcrushers' 3 make 6, a wound he survives, and the End Phase clears
// his activation token.
func TestTokensLyingOnADiskAreItsState(t *testing.T) {
	a := mustRun(t, loadTable(t, "tokens.json"))
	o := a.Outcome()
	if len(a.Warnings) != 0 {
		t.Errorf("warnings: got %q, want none", a.Warnings)
	}
	checkList(t, "wounds", eventsOf(o, "wound"), []string{"E1 normal: karl"})
	checkList(t, "casualties", o.Melee.Casualties, nil)
	checkMap(t, "wounds after the melee", o.Melee.Wounds, map[string]int{"karl": 1})
	end := o.Details.(Details).EndPhase
	checkList(t, "end_phase.cleared_activation", end.ClearedActivation, []string{"karl"})
}

// Which tokens count, and how they meet the disk's own fields. Defender d
// (toughness 5, stamina 1) takes 1 + 1 in the melee, so 3 damage on it
// beforehand makes a wound.
func TestStateTokens(t *testing.T) {
	token := func(kind string, x, y, r float64, value ...int) models.Token {
		tok := models.Token{ID: "t" + kind, Kind: kind, X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r)}
		if len(value) > 0 {
			tok.Value = &value[0]
		}
		return tok
	}
	tests := []struct {
		name           string
		edit           func(b *builder)
		damage, wounds int    // d's after the melee
		warning        string // "" for none
	}{
		{"a damage token worth 3 adds 3", func(b *builder) {
			b.l.Tokens = []models.Token{token("damage", 0, 0, 0.5, 3)}
		}, 0, 1, ""},
		{"a damage token without a value is worth 1", func(b *builder) {
			b.l.Tokens = []models.Token{token("damage", 0, 1, 0.4), token("Damage", 0, -1, 0.4)}
			b.l.Tokens[1].ID = "t2"
		}, 4, 0, ""},
		{"a wound token is a wound already taken", func(b *builder) {
			b.l.Tokens = []models.Token{token("wound", 0, 0, 0.5)}
		}, 2, 1, ""},
		{"a token touching two disks is not counted", func(b *builder) {
			b.l.Tokens = []models.Token{token("damage", -2, 0, 0.3, 3)}
		}, 2, 0, "touches a1 and d"},
		{"a token touching a creature and the terrain under it counts", func(b *builder) {
			b.disk("hill", "", 0, 0, 0, nil).with(func(d *models.Disk) { d.Kind, d.Terrain, d.R = models.KindTerrain, "hill", 12 })
			b.l.Tokens = []models.Token{token("damage", 0, 0, 0.5, 3)}
		}, 0, 1, ""},
		{"the disk's field and tokens that agree count once", func(b *builder) {
			b.l.Disks[2].Damage = 3
			b.l.Tokens = []models.Token{token("damage", 0, 0, 0.5, 3)}
		}, 0, 1, ""},
		{"the disk's field wins over tokens that disagree, with a warning", func(b *builder) {
			b.l.Disks[2].Damage = 1
			b.l.Tokens = []models.Token{token("damage", 0, 0, 0.5, 3)}
		}, 3, 0, "damage 1 but damage tokens worth 3"},
		{"a token worth less than 1 is not counted", func(b *builder) {
			b.l.Tokens = []models.Token{token("damage", 0, 0, 0.5, -3)}
		}, 2, 0, "value -3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := twoOnOne(stats(1, 1, 5, 0), stats(1, 1, 5, 0), stats(1, 1, 5, 1))
			tt.edit(b)
			a := mustRun(t, b.table())
			o := a.Outcome()
			if got := o.Melee.Damage["d"]; got != tt.damage {
				t.Errorf("d's damage: got %d, want %d", got, tt.damage)
			}
			if got := o.Melee.Wounds["d"]; got != tt.wounds {
				t.Errorf("d's wounds: got %d, want %d", got, tt.wounds)
			}
			all := strings.Join(a.Warnings, "\n")
			switch {
			case tt.warning == "" && len(a.Warnings) > 0:
				t.Errorf("warnings: got %q, want none", a.Warnings)
			case tt.warning != "" && !strings.Contains(all, tt.warning):
				t.Errorf("warnings: got %q, want one containing %q", a.Warnings, tt.warning)
			}
		})
	}
}

// The End Phase: "All tokens (except for Wound tokens) are removed from
// disks in play: this includes damage, activation tokens". Read as state,
// they must go, or the next round would count them again.
func TestEndPhaseRemovesDamageAndActivationTokensKeepsWoundTokens(t *testing.T) {
	l := loadTable(t, "tokens.json").Layout()
	l.Tokens = append(l.Tokens, models.Token{ID: "t3", Kind: "wound", X: 3, Y: 1, R: 0.5})
	got := EndPhase(l)
	var kinds []string
	for _, tok := range got.Tokens {
		kinds = append(kinds, tok.Kind)
	}
	checkList(t, "tokens left", kinds, []string{"wound"})
	if !slices.ContainsFunc(l.Tokens, func(tok models.Token) bool { return tok.Kind == "damage" }) {
		t.Errorf("EndPhase changed the layout it was given")
	}
}

// A damage or wound count beyond MaxStat is an error naming the disk and
// the field it is too large in. Token sums are capped at MaxStat+1 while
// they are added up, so the error must not quote the capped sum as what
// lies on the disk (a token worth 5000 was reported as "damage 1001"),
// and an absurd wounds_taken must be named as such, not as "damage".
func TestAbsurdDamageOrWoundCountsAreErrorsNamingTheField(t *testing.T) {
	value := 5000
	tests := []struct {
		name      string
		edit      func(b *builder)
		field     string
		want, not string // the error contains want and not not
	}{
		{"damage tokens worth 5000", func(b *builder) {
			b.l.Tokens = []models.Token{{ID: "t1", Kind: "damage", X: 0, Y: 0, R: 0.5, Value: &value}}
		}, "damage", "worth more than 1000", "1001"},
		{"a damage field of 2000", func(b *builder) { b.l.Disks[2].Damage = 2000 }, "damage", "is 2000", "1001"},
		{"a wounds_taken field of 2000", func(b *builder) { b.l.Disks[2].WoundsTaken = 2000 }, "wounds_taken", "is 2000", "damage"},
		{"wound tokens worth 5000", func(b *builder) {
			b.l.Tokens = []models.Token{{ID: "t1", Kind: "wound", X: 0, Y: 0, R: 0.5, Value: &value}}
		}, "wounds_taken", "wound tokens lying on it are worth more than 1000", "1001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := twoOnOne(stats(3, 1, 5, 0), stats(3, 1, 5, 0), stats(1, 1, 5, 1))
			tt.edit(b)
			_, err := Run(b.table())
			var se *StatError
			if !errors.As(err, &se) {
				t.Fatalf("got error %v, want a StatError", err)
			}
			if se.Disk != "d" || se.Stat != tt.field {
				t.Errorf("got disk %q field %q, want disk d field %q (%v)", se.Disk, se.Stat, tt.field, err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.want) || strings.Contains(msg, tt.not) {
				t.Errorf("got %q, want it to contain %q and not %q", msg, tt.want, tt.not)
			}
		})
	}
}
