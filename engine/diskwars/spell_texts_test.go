package diskwars

import (
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// TestMagicWallLimitAroundEveryWall: "Mur magique" (Livre de sorts,
// niveau 1): "Il ne peut pas y avoir plus de trois murs dans un rayon de
// 30 cm." Walls are counted within 30 cm of a wall, edge to edge, the
// wall itself included: a new wall must not bring a wall already there
// over three, though it has no more than three within 30 cm of itself.
func TestMagicWallLimitAroundEveryWall(t *testing.T) {
	wall := func(id string, x float64) models.Disk {
		return models.Disk{ID: id, Name: "Mur magique", Kind: models.KindSpell, X: models.Centimetres(x), R: 2.5}
	}
	mage := fighter("mage", "a", 20, 12, 2.5, 0, 1, 1, 3, "spellcaster:3") // 7 cm from (20, 0)
	for _, tc := range []struct {
		name    string
		walls   []models.Disk
		x       float64
		problem string // "" for a legal cast
	}{
		// New wall at x = 20: a at 15 cm, b at 23 cm, c at 31 cm edge to edge.
		{name: "two walls near the new one, the third beyond 30 cm of it: a would have four", walls: []models.Disk{wall("a", 0), wall("b", -8), wall("c", -16)}, x: 20, problem: "4 walls within 30 cm of a"},
		{name: "two walls near the new one and no other: three everywhere", walls: []models.Disk{wall("a", 0), wall("b", -8)}, x: 20},
		{name: "three walls near the new one: four within 30 cm of it", walls: []models.Disk{wall("a", 0), wall("b", -8), wall("c", 10)}, x: 20, problem: "4 walls within 30 cm; at most 3"},
		{name: "a wall far from the others", walls: []models.Disk{wall("a", -30), wall("b", -38), wall("c", -46)}, x: 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := layoutOf(append([]models.Disk{mage}, tc.walls...)...)
			r, err := CheckCast(engine.NewTable(l), Cast{Caster: "mage", Spell: "Mur magique", At: &models.TablePoint{X: models.Centimetres(tc.x)}})
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
		})
	}
}

// TestZapReachesTheCaster: "Zap — Portée : 30cm de rayon autour du
// lanceur — Effet : fait gagner un bonus de 2 points à la capacité de
// Mouvement de tous les Disks à portée (laissez le Disk de sort sur le
// lanceur pour se souvenir des effets)." Every disk within the 30 cm
// around the caster gains it, the caster, at the centre of that circle,
// too (moving again after Vigueur takes its activation marker off); the
// spells that spare some disks say so ("tous les Disks ennemis").
func TestZapReachesTheCaster(t *testing.T) {
	mage := fighter("mage", "a", 0, 0, 2.5, 0, 1, 1, 3, "spellcaster:1") // movement 3
	friend := fighter("friend", "a", 20, 0, 2.5, 0, 1, 1, 2)             // 15 cm
	foe := fighter("foe", "b", 0, 30, 2.5, 0, 1, 1, 2)                   // 25 cm
	far := fighter("far", "b", -40, 0, 2.5, 0, 1, 1, 2)                  // 35 cm
	t.Run("cast: the caster is among the disks it affects", func(t *testing.T) {
		r, err := CheckCast(engine.NewTable(layoutOf(mage, friend, foe, far)), Cast{Caster: "mage", Spell: "Zap"})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"mage", "friend", "foe"}; !r.Legal || !sameSet(r.Affected, want) {
			t.Errorf("got legal %v affected %v (%v), want legal, affected %v", r.Legal, r.Affected, r.Problems, want)
		}
	})
	zap := spellOn("s1", "Zap", mage)
	for _, tc := range []struct {
		name  string
		spell models.Disk
		mover string
		x, y  float64
		legal bool
		move  int
	}{
		{name: "the caster moves four flips with 3+2", spell: zap, mover: "mage", x: 0, y: -20, legal: true, move: 5},
		{name: "as its affected field lists it", spell: withExtra(zap, "affected", []string{"mage", "friend"}), mover: "mage", x: 0, y: -20, legal: true, move: 5},
		{name: "a friend within 30 cm too", spell: zap, mover: "friend", x: 20, y: -20, legal: true, move: 5},
		{name: "a disk beyond 30 cm does not", spell: zap, mover: "far", x: -40, y: -20, move: 3},
	} {
		t.Run("move: "+tc.name, func(t *testing.T) {
			before := layoutOf(mage, friend, foe, far, tc.spell)
			after := moved(before, tc.mover, tc.x, tc.y)
			for k := range after.Disks {
				if after.Disks[k].ID == "s1" && tc.mover == "mage" {
					after.Disks[k].X, after.Disks[k].Y = models.Centimetres(tc.x), models.Centimetres(tc.y)
				}
			}
			m, err := CheckMove(before, after, MoveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Legal != tc.legal || m.Movement != tc.move {
				t.Errorf("got legal %v movement %d (%v, bonuses %v), want legal %v movement %d", m.Legal, m.Movement, m.Problems, m.Bonuses, tc.legal, tc.move)
			}
		})
	}
}
