package diskwars

import (
	"fmt"
	"strings"
	"testing"

	"tableref/models"
)

// TestMagicWallAndFlyers: "Mur magique" (Livre de sorts, niveau 1): "Aucun
// Disk ne peut passer ou s'arrêter sur ce mur. Les Disks volants peuvent
// passer par dessus mais ne peuvent pas finir leur mouvement dessus." A
// flyer passes over a wall on the way (a landing over it, as over any
// non-flying disk), a walker does not, and nobody ends on it.
func TestMagicWallAndFlyers(t *testing.T) {
	walker := fighter("mover", "elves", 0, 0, 2.5, 0, 1, 1, 2)
	walker.Stats["movement"] = 2
	flyer := walker
	flyer.Flying = true
	wall := models.Disk{ID: "wall", Name: "Mur magique", Kind: models.KindSpell, X: 5, Y: 0, R: 2.5}
	for _, tc := range []struct {
		name    string
		mover   models.Disk
		x, y    float64
		legal   bool
		flips   int
		problem string
	}{
		// Two diameters straight on: the only landing on the way is on the wall.
		{name: "a flyer passes over the wall", mover: flyer, x: 10, legal: true, flips: 2},
		{name: "a walker cannot pass it: going round needs a third flip", mover: walker, x: 10, flips: 3, problem: "needs 3 flips"},
		{name: "a flyer cannot end its move on the wall", mover: flyer, x: 5, y: 0.5, flips: 1, problem: "ends on the magic wall"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := layoutOf(tc.mover, wall)
			m, err := CheckMove(before, moved(before, "mover", tc.x, tc.y), MoveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if m.Legal != tc.legal || m.MinFlips != tc.flips {
				t.Errorf("got legal %v flips %d (%v), want legal %v flips %d", m.Legal, m.MinFlips, m.Problems, tc.legal, tc.flips)
			}
			if tc.problem != "" && !strings.Contains(strings.Join(m.Problems, "; "), tc.problem) {
				t.Errorf("problems: got %v, want one with %q", m.Problems, tc.problem)
			}
		})
	}
}

// TestMinFlipsAnyTolerance: "Action : se déplacer": "le joueur qui le
// contrôle peut retourner le Disk dans n'importe quelle direction". Two
// flips in well-chosen directions reach any place within two diameters,
// however small the measuring tolerance, when the landing between them is
// free; more are needed beyond, or when both possible landings are taken.
func TestMinFlipsAnyTolerance(t *testing.T) {
	a := fighter("a", "x", 0, 0, 2.5, 0, 1, 1, 2)
	a.Stats["movement"] = 2
	// A friend at (3.5, 6) keeps the disk from landing at the upper of the
	// two midpoints of a 7 cm move, (3.5, 3.57); the lower one is free
	// unless a friend lies at (3.5, -6) too.
	upper := fighter("upper", "x", 3.5, 6, 2.5, 0, 1, 1, 2)
	lower := fighter("lower", "x", 3.5, -6, 2.5, 0, 1, 1, 2)
	for _, tol := range []float64{0.5, 0.1, 0.05, 0.01} {
		for _, tc := range []struct {
			name   string
			others []models.Disk
			x, y   float64
			two    bool // two flips; else more (or no path), illegal with movement 2
		}{
			{"0.7 cm away", nil, 0.7, 0.3, true},
			{"3 cm away", nil, 3, 0.3, true},
			{"7 cm away", nil, 7, 0.3, true},
			{"9.9 cm away", nil, 9.9, 0.3, true},
			{"13 cm away", nil, 13, 0.3, false},
			{"7 cm away, one midpoint taken", []models.Disk{upper}, 7, 0, true},
			{"7 cm away, both midpoints taken", []models.Disk{upper, lower}, 7, 0, false},
		} {
			t.Run(fmt.Sprintf("tolerance %v cm, %s", tol, tc.name), func(t *testing.T) {
				before := layoutOf(append([]models.Disk{a}, tc.others...)...)
				m, err := CheckMove(before, moved(before, "a", tc.x, tc.y), MoveOptions{Tolerance: models.Centimetres(tol)})
				if err != nil {
					t.Fatal(err)
				}
				if (m.MinFlips == 2) != tc.two || m.Legal != tc.two || m.MinFlips == 0 || m.MinFlips == 1 {
					t.Errorf("got %d flips, legal %v (%v), want two flips %v", m.MinFlips, m.Legal, m.Problems, tc.two)
				}
			})
		}
	}
}

// TestMoveReadsOnlyMovement: "Tout Disk qui dispose d'une valeur de
// Mouvement supérieure ou égale à 1, peut se déplacer": a move is checked
// from the movement alone; a terrain that moved is an error saying so.
func TestMoveReadsOnlyMovement(t *testing.T) {
	walker := models.Disk{ID: "m", Owner: "a", Kind: models.KindCreature, R: 2.5, Stats: models.Stats{"movement": 3}}
	hill := models.Disk{ID: "hill", Kind: models.KindTerrain, X: 50, R: 8}
	before := layoutOf(walker, hill)
	m, err := CheckMove(before, moved(before, "m", 10, 0), MoveOptions{})
	if err != nil || !m.Legal || m.MinFlips != 2 || m.Movement != 3 {
		t.Errorf("movement only: got %+v, %v, want legal, 2 flips of 3", m, err)
	}
	if _, err := CheckMove(before, moved(before, "hill", 60, 0), MoveOptions{}); err == nil || !strings.Contains(err.Error(), "only a creature moves") {
		t.Errorf("terrain moved: got %v, want an error saying only a creature moves", err)
	}
}
