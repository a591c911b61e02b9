package diskwars

import (
	"strings"
	"testing"

	"tableref/engine"
)

// TestPremierContactBaseBerserk: "Premier contact", condition 2: "Si un
// joueur parvient à amener sur la base ennemie un ou plusieurs Disks d'une
// valeur d'Attaque combinée de 8 ou plus." The attack counted is the
// disk's attack this turn: "Berserk": "Un Disk qui possède cette capacité
// peut, s'il a attaqué le tour précédent, ajouter 2 points à ses valeurs de
// AT, D, E" (Tribu d'Ulc, AT=5 becomes AT=7).
func TestPremierContactBaseBerserk(t *testing.T) {
	ulc := fighter("ulc", "a", 60, 108, 2.5, 1, 5, 3, 4, KeywordBerserk)
	r2 := fighter("r2", "a", 63, 110, 2.5, 2, 1, 1, 1)
	for _, tc := range []struct {
		name     string
		attacked bool
		winner   string
		reason   string
	}{
		{"Tribu d'Ulc without its bonus: 5 + 1 = 6", false, "", ""},
		{"Tribu d'Ulc, berserk: 7 + 1 = 8 wins", true, "a", "combined attack of 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := ulc
			u.AttackedLastTurn = tc.attacked
			v, err := CheckScenario(PremierContact, []*engine.Table{scenarioTable(u, r2)}, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if v.Winner != tc.winner || !strings.Contains(strings.Join(v.Reasons, "; "), tc.reason) {
				t.Errorf("got winner %q (%v), want %q with %q", v.Winner, v.Reasons, tc.winner, tc.reason)
			}
		})
	}
}
