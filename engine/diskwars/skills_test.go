package diskwars

import (
	"strings"
	"testing"

	"tableref/models"
)

// TestBardSkill is the Elf Bard's special skill, the one the rulebook
// gives in full ("Action : utiliser une Compétence spéciale", shared/
// seeds/004): "A pour donner à un Disk NA dans un rayon de 30cm +3M ce
// tour". The archer (movement 3) needs four flips; a bard within 30 cm
// makes it legal.
func TestBardSkill(t *testing.T) {
	archer := fighter("archer", "elves", 0, 0, 2.5, 0, 1, 1, 2) // movement 3
	bard := func(x float64, kw ...string) models.Disk {
		b := fighter("bard", "elves", x, 0, 2.5, 0, 1, 1, 2, kw...)
		b.Activated = true // it was activated to use its skill
		return b
	}
	orc := fighter("orc", "orcs", 25.5, 0, 2.5, 1, 1, 1, 2) // lies on the bard at 25
	for _, tc := range []struct {
		name    string
		disks   []models.Disk
		bard    string
		legal   bool
		problem string
	}{
		{"a bard 20 cm away gives +3", []models.Disk{archer, bard(25, "bard")}, "bard", true, ""},
		{"the French keyword", []models.Disk{archer, bard(25, "barde")}, "bard", true, ""},
		{"a bard 35 cm away is out of range", []models.Disk{archer, bard(40, "bard")}, "bard", false, "beyond 30 cm"},
		{"a disk without the skill", []models.Disk{archer, bard(25)}, "bard", false, `no special skill "bard"`},
		{"a bard under Prise de tête", []models.Disk{archer, bard(25, "bard"), spellOn("s1", "Prise de tête", bard(25))}, "bard", false, "cannot use its special skills: Prise de tête (s1)"},
		{"a blocked bard could not be activated", []models.Disk{archer, bard(25, "bard"), orc}, "bard", false, "blocked by orc"},
		{"a bard does not boost itself", []models.Disk{fighter("archer", "elves", 0, 0, 2.5, 0, 1, 1, 2, "bard")}, "archer", false, "not to itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := layoutOf(tc.disks...)
			m, err := CheckMove(before, moved(before, "archer", 0, -20), MoveOptions{Bard: tc.bard})
			if err != nil {
				t.Fatal(err)
			}
			if m.Legal != tc.legal || m.Movement != 6 || m.MinFlips != 4 {
				t.Errorf("got legal %v movement %d flips %d (%v), want legal %v movement 6 flips 4", m.Legal, m.Movement, m.MinFlips, m.Problems, tc.legal)
			}
			if tc.problem != "" && !strings.Contains(strings.Join(m.Problems, "; "), tc.problem) {
				t.Errorf("problems: got %v, want one with %q", m.Problems, tc.problem)
			}
		})
	}
	before := layoutOf(archer)
	if _, err := CheckMove(before, moved(before, "archer", 0, -20), MoveOptions{Bard: "nobody"}); err == nil {
		t.Errorf("an unknown bard: got no error")
	}
}

// TestAmbushSkill: "Quand un Disk déclenche une Embuscade, son
// propriétaire le prend en main et le place directement sur une partie du
// Disk ennemi de façon à la chevaucher (il peut aussi chevaucher d'autres
// Disks)" ("Autres règles importantes", Embuscade). No flip is counted;
// the disk must end on an enemy, and then attacks it.
func TestAmbushSkill(t *testing.T) {
	orc := fighter("orc", "orcs", 60, 0, 2.5, 0, 1, 1, 2)
	for _, tc := range []struct {
		name    string
		kw      []string
		x       float64
		extra   []models.Disk
		legal   bool
		problem string
	}{
		{"placed on the enemy 60 cm away", []string{"ambush"}, 58, nil, true, ""},
		{"the French keyword", []string{"embuscade"}, 58, nil, true, ""},
		{"placed on no enemy", []string{"ambush"}, 40, nil, false, "lies on none"},
		{"a disk without the skill", nil, 58, nil, false, `no special skill "ambush"`},
		{"under Prise de tête", []string{"ambush"}, 58, []models.Disk{{ID: "s1", Name: "Prise de tête", Kind: models.KindSpell, X: 90, Y: 90, R: 1.5, Target: "elf"}}, false, "Prise de tête (s1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			elf := fighter("elf", "elves", 0, 0, 2.5, 0, 1, 1, 2, tc.kw...)
			before := layoutOf(append([]models.Disk{elf, orc}, tc.extra...)...)
			m, err := CheckMove(before, moved(before, "elf", tc.x, 0), MoveOptions{Ambush: true})
			if err != nil {
				t.Fatal(err)
			}
			if m.Legal != tc.legal || !m.Ambush || m.MinFlips != 0 || m.Attack != (tc.x == 58) {
				t.Errorf("got legal %v ambush %v flips %d attack %v (%v), want legal %v, an ambush, 0 flips", m.Legal, m.Ambush, m.MinFlips, m.Attack, m.Problems, tc.legal)
			}
			if tc.problem != "" && !strings.Contains(strings.Join(m.Problems, "; "), tc.problem) {
				t.Errorf("problems: got %v, want one with %q", m.Problems, tc.problem)
			}
		})
	}
}
