package diskwars

import (
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// TestCastTargetRules checks what the texts of the "Livre de sorts" ask of
// the caster and of the targets, on spellTable (mage at the origin; e1
// under its friend onE1; blocked under its enemy blocker; far 25 cm away).
func TestCastTargetRules(t *testing.T) {
	at := func(x, y float64) *models.TablePoint {
		return &models.TablePoint{X: models.Centimetres(x), Y: models.Centimetres(y)}
	}
	for _, tc := range []struct {
		name    string
		edit    func(l *models.Layout)
		cast    Cast
		problem string // "" for a legal cast
		// affected, when not nil, is what the spell acts on.
		affected []string
	}{
		// Contre-sort: "Seul un magicien de niveau 3 non activé peut le lancer."
		{name: "Contre-sort: a non-activated caster may cast it", cast: Cast{Spell: "Contre-sort"}},
		{name: "Contre-sort: an activated caster may not", edit: activate("mage"), cast: Cast{Spell: "Contre-sort"}, problem: "already activated"},
		// "Note importante : ... quand nous ferons référence à un Disk, il
		// sera question de créature." Vitesse: "le Disk choisi gagne un
		// bonus de 3 points à sa capacité de Mouvement".
		{name: "Vitesse on a creature", cast: Cast{Spell: "Vitesse", Targets: []string{"friend"}}},
		{name: "Vitesse on a spell disk is refused", cast: Cast{Spell: "Vitesse", Targets: []string{"wall1"}}, problem: "wall1 is not a creature"},
		{name: "Paralysie chooses creatures", cast: Cast{Spell: "Paralysie", Targets: []string{"e1", "wall1"}}, problem: "wall1 is not a creature"},
		// Choc électrique: "choisissez un Disk à portée du magicien. Ce Disk,
		// et tous les Disks qui le touchent ...": a terrain is no target.
		{name: "Choc électrique on a terrain is refused", edit: nearHill, cast: Cast{Spell: "Choc électrique", Targets: []string{"hill"}}, problem: "hill is not a creature", affected: []string{}},
		// Destin: "choisissez deux Disks qui sont soit en combat, soit
		// bloqués. Inversez leurs positions. (passez le Disk du dessus
		// dessous)": one of the two lies on the other.
		{name: "Destin: two disks in combat", cast: Cast{Spell: "Destin", Targets: []string{"blocker", "blocked"}}},
		{name: "Destin: a disk and its friend blocking it", cast: Cast{Spell: "Destin", Targets: []string{"e1", "onE1"}}},
		{name: "Destin: two disks apart are refused", cast: Cast{Spell: "Destin", Targets: []string{"friend", "e1"}}, problem: "lies on the other"},
		// Déplacement: "choisissez deux Disks qui ne sont pas en combat. Ces
		// Disks échangent leurs places. Un des deux Disks doit être à portée
		// du magicien."
		{name: "Déplacement: two disks out of combat", cast: Cast{Spell: "Déplacement", Targets: []string{"friend", "far"}}},
		{name: "Déplacement: a blocked disk under a friend is not in combat", cast: Cast{Spell: "Déplacement", Targets: []string{"e1", "far"}}},
		{name: "Déplacement: a disk in combat is refused", cast: Cast{Spell: "Déplacement", Targets: []string{"blocked", "far"}}, problem: "blocked is in combat"},
		{name: "Déplacement: its attacker neither", cast: Cast{Spell: "Déplacement", Targets: []string{"friend", "blocker"}}, problem: "blocker is in combat"},
		// Téléportation: "à un maximum de 30cm de sa position de départ";
		// "Précision sur les mesures": "Les mesures s'effectuent toujours
		// de bord de Disk à bord de Disk". far (r 2.5) from (-30, 0).
		{name: "Téléportation: 29 cm edge to edge (centre 34 cm away)", cast: Cast{Spell: "Téléportation", Targets: []string{"far"}, At: at(-30, 34)}},
		{name: "Téléportation: 31 cm edge to edge is too far", cast: Cast{Spell: "Téléportation", Targets: []string{"far"}, At: at(-30, 36)}, problem: "more than 30 cm"},
		// Soins: "enlève un marqueur de Blessure du Disk de votre choix. Ne
		// peut être lancé que sur un Disk qui possède plusieurs blessures."
		{name: "Soins on a disk of 3 wounds with a wound marker", edit: wounds("friend", 3, 1), cast: Cast{Spell: "Soins", Targets: []string{"friend"}}},
		{name: "Soins on a disk of 3 wounds without a marker", edit: wounds("friend", 3, 0), cast: Cast{Spell: "Soins", Targets: []string{"friend"}}, problem: "no wound marker"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := spellTable()
			if tc.edit != nil {
				tc.edit(&l)
			}
			tc.cast.Caster = "mage"
			r, err := CheckCast(engine.NewTable(l), tc.cast)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(r.Problems, "; ")
			switch {
			case tc.problem == "" && !r.Legal:
				t.Errorf("got illegal (%s), want legal", got)
			case tc.problem != "" && (r.Legal || !strings.Contains(got, tc.problem)):
				t.Errorf("got legal %v (%s), want a problem with %q", r.Legal, got, tc.problem)
			}
			if tc.affected != nil && !sameSet(r.Affected, tc.affected) {
				t.Errorf("affected: got %v, want %v", r.Affected, tc.affected)
			}
		})
	}
}

func activate(id string) func(*models.Layout) {
	return func(l *models.Layout) {
		for k := range l.Disks {
			if l.Disks[k].ID == id {
				l.Disks[k].Activated = true
			}
		}
	}
}

func wounds(id string, n, taken int) func(*models.Layout) {
	return func(l *models.Layout) {
		for k := range l.Disks {
			if l.Disks[k].ID == id {
				l.Disks[k].Stats["wounds"] = n
				l.Disks[k].WoundsTaken = taken
			}
		}
	}
}

// nearHill brings the hill within 15 cm of the mage, with two creatures
// lying on it.
func nearHill(l *models.Layout) {
	for k := range l.Disks {
		if l.Disks[k].ID == "hill" {
			l.Disks[k].X, l.Disks[k].Y = -20, 12
			l.Disks[k].R = 10
		}
	}
	l.Disks = append(l.Disks, fighter("onHill", "a", -22, 12, 2.5, 1, 1, 1, 2), fighter("onHill2", "b", -17, 14, 2.5, 1, 1, 1, 2))
}
