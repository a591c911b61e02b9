package diskwars

import (
	"reflect"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// spellTable: the caster "mage" (level 3) at the origin, r 2.5; edge
// distances from it in the comments.
func spellTable() models.Layout {
	mage := fighter("mage", "a", 0, 0, 2.5, 0, 1, 1, 3, "spellcaster:3")
	friend := fighter("friend", "a", 0, 10, 2.5, 0, 1, 1, 3)    // 5
	e1 := fighter("e1", "b", 15, 0, 2.5, 0, 1, 1, 4)            // 10
	onE1 := fighter("onE1", "b", 18, 0, 2.5, 1, 1, 1, 2)        // on e1
	blocked := fighter("blocked", "b", 0, -12, 2.5, 0, 1, 1, 1) // 7, blocked
	blocker := fighter("blocker", "a", 0, -15, 2.5, 1, 1, 1, 1) // on blocked
	far := fighter("far", "b", -30, 0, 2.5, 0, 1, 1, 2)         // 25
	wall := models.Disk{ID: "wall1", Name: "Mur magique", Kind: models.KindSpell, X: -10, Y: 20, R: 2.5}
	hill := models.Disk{ID: "hill", Kind: models.KindTerrain, Terrain: "hill", X: 60, Y: 0, R: 20}
	l := layoutOf(mage, friend, e1, onE1, blocked, blocker, far, wall, hill)
	return l
}

func TestCheckCast(t *testing.T) {
	tb := engine.NewTable(spellTable())
	at := func(x, y float64) *models.TablePoint {
		return &models.TablePoint{X: models.Centimetres(x), Y: models.Centimetres(y)}
	}
	for _, tc := range []struct {
		name     string
		cast     Cast
		legal    bool
		affected []string
		problem  string
		pushes   []Push
	}{
		{name: "Décrépitude: the enemies within 15 cm", cast: Cast{Spell: "Décrépitude"}, legal: true, affected: []string{"blocked", "e1", "onE1"}},
		// Zap: "tous les Disks à portée", "30cm de rayon autour du lanceur".
		{name: "Zap: every creature within 30 cm, the caster too", cast: Cast{Spell: "Zap"}, legal: true, affected: []string{"mage", "friend", "blocked", "e1", "blocker", "onE1", "far"}},
		{name: "Onde de choc: unblocked enemies within 15 cm, flipped away from the caster", cast: Cast{Spell: "Onde de choc"}, legal: true,
			affected: []string{"onE1"}, pushes: []Push{{"onE1", 23, 0}}},
		{name: "Paralysie: five disks at most", cast: Cast{Spell: "Paralysie", Targets: []string{"friend", "e1", "blocked", "blocker", "onE1", "mage"}}, problem: "at most 5"},
		{name: "Paralysie: within 15 cm", cast: Cast{Spell: "Paralysie", Targets: []string{"e1", "far"}}, affected: []string{"e1"}, problem: "beyond the 15 cm"},
		{name: "Choc électrique: the target and its contact chain, not through terrain", cast: Cast{Spell: "Choc électrique", Targets: []string{"e1"}}, legal: true, affected: []string{"e1", "onE1"}},
		{name: "Choc électrique: target within 15 cm", cast: Cast{Spell: "Choc électrique", Targets: []string{"far"}}, problem: "beyond"},
		{name: "Protection: the caster and the disks in contact", cast: Cast{Spell: "Protection"}, legal: true, affected: []string{"mage"}},
		{name: "Bouclier within 30 cm", cast: Cast{Spell: "Bouclier", Targets: []string{"far"}}, legal: true, affected: []string{"far"}},
		{name: "Immobilisation beyond 30 cm", cast: Cast{Spell: "Immobilisation", Targets: []string{"hill"}}, problem: "beyond"},
		{name: "Mur magique on an empty place within 15 cm", cast: Cast{Spell: "Mur magique", At: at(-12, 0)}, legal: true},
		{name: "Mur magique not on a disk", cast: Cast{Spell: "Mur magique", At: at(12, 0)}, problem: "not empty"},
		{name: "Mur magique beyond 15 cm", cast: Cast{Spell: "Mur magique", At: at(-25, 10)}, problem: "beyond"},
		{name: "Boule de feu: the first enemy on the line", cast: Cast{Spell: "Boule de feu", At: at(100, 0)}, legal: true, affected: []string{"e1"}},
		{name: "Boule de feu passes friends", cast: Cast{Spell: "Boule de feu", At: at(0, 100)}, legal: true, affected: []string{}},
		// Target conditions of the spell texts (Livre de sorts).
		{name: "Répulsion: not on a blocked disk", cast: Cast{Spell: "Répulsion", Targets: []string{"blocked"}}, problem: "blocked is blocked"},
		{name: "Répulsion on a free disk", cast: Cast{Spell: "Répulsion", Targets: []string{"far"}}, legal: true, affected: []string{"far"}},
		{name: "Prise de tête: an enemy", cast: Cast{Spell: "Prise de tête", Targets: []string{"friend"}}, problem: "not an enemy"},
		{name: "Vigueur: a friend with a marker", cast: Cast{Spell: "Vigueur", Targets: []string{"friend"}}, problem: "no activation marker"},
		{name: "Soins: a disk with several wounds", cast: Cast{Spell: "Soins", Targets: []string{"friend"}}, problem: "single wound"},
		{name: "Téléportation at most 30 cm, edge to edge", cast: Cast{Spell: "Téléportation", Targets: []string{"far"}, At: at(-30, 36)}, problem: "more than 30 cm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cast.Caster = "mage"
			r, err := CheckCast(tb, tc.cast)
			if err != nil {
				t.Fatal(err)
			}
			if tc.problem == "" && r.Legal != tc.legal {
				t.Errorf("legal: got %v (%v), want %v", r.Legal, r.Problems, tc.legal)
			}
			if tc.affected != nil && !sameSet(r.Affected, tc.affected) {
				t.Errorf("affected: got %v, want %v", r.Affected, tc.affected)
			}
			if tc.problem != "" && (r.Legal || !strings.Contains(strings.Join(r.Problems, "; "), tc.problem)) {
				t.Errorf("problems: got %v, want one with %q", r.Problems, tc.problem)
			}
			if tc.pushes != nil && !reflect.DeepEqual(r.Pushes, tc.pushes) {
				t.Errorf("pushes: got %v, want %v", r.Pushes, tc.pushes)
			}
		})
	}
}

func TestCastLevelAndWalls(t *testing.T) {
	l := spellTable()
	l.Disks[0].Keywords = []string{"spellcaster:1"}
	// "Le niveau", Pascal: a level 1 caster cannot cast a level 2 spell.
	r, err := CheckCast(engine.NewTable(l), Cast{Caster: "mage", Spell: "Boule de feu", At: &models.TablePoint{X: 10}})
	if err != nil || r.Legal || !strings.Contains(strings.Join(r.Problems, ";"), "level 1, the spell is level 2") {
		t.Errorf("got %+v %v, want a level problem", r, err)
	}
	// Three walls within 30 cm already: a fourth is refused.
	l = spellTable()
	for k, x := range []float64{-20, -25} {
		l.Disks = append(l.Disks, models.Disk{ID: "wall" + string(rune('2'+k)), Name: "Mur magique", Kind: models.KindSpell, X: models.Centimetres(x), Y: 20, R: 2.5})
	}
	r, _ = CheckCast(engine.NewTable(l), Cast{Caster: "mage", Spell: "Mur magique", At: &models.TablePoint{X: -12, Y: 0}})
	if r.Legal || !strings.Contains(strings.Join(r.Problems, ";"), "4 walls") {
		t.Errorf("fourth wall: got %+v, want refused", r.Problems)
	}
	if _, err := CheckCast(engine.NewTable(l), Cast{Caster: "mage", Spell: "Abracadabra"}); err == nil {
		t.Errorf("unknown spell: got no error")
	}
	if _, err := CheckCast(engine.NewTable(l), Cast{Caster: "nobody", Spell: "Zap"}); err == nil {
		t.Errorf("unknown caster: got no error")
	}
}

func TestShockWaveOrder(t *testing.T) {
	// "Onde de choc": the disks are moved in increasing order of toughness.
	mage := fighter("mage", "a", 0, 0, 2.5, 0, 1, 1, 3, "spellcaster:2")
	l := layoutOf(mage, fighter("tough", "b", 10, 0, 2.5, 0, 1, 1, 6), fighter("weak", "b", -10, 0, 2.5, 0, 1, 1, 2), fighter("mid", "b", 0, 10, 2.5, 0, 1, 1, 4))
	r, err := CheckCast(engine.NewTable(l), Cast{Caster: "mage", Spell: "Onde de choc"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Push{{"weak", -15, 0}, {"mid", 0, 15}, {"tough", 15, 0}}
	if !reflect.DeepEqual(r.Pushes, want) {
		t.Errorf("pushes: got %v, want %v", r.Pushes, want)
	}
}
