package diskwars

import (
	"maps"
	"reflect"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// meleeCase is a pile of disks, what the book says happens, and the state
// tableref must reach.
type meleeCase struct {
	name       string
	disks      []models.Disk
	pre        func(t *testing.T, tb *engine.Table) // geometry the example assumes
	casualties []string
	damage     map[string]int // damage held by survivors
	combats    int
	strikes    map[string]string // from -> to, for strikes that must occur
	noStrike   [][2]string       // pairs that must not fight
}

func onTop(top, bottom string) func(t *testing.T, tb *engine.Table) {
	return func(t *testing.T, tb *engine.Table) {
		t.Helper()
		i, _ := tb.Index(top)
		j, _ := tb.Index(bottom)
		if !tb.OnTop(i, j) {
			t.Fatalf("test layout: %s should lie on %s", top, bottom)
		}
	}
}

func all(fs ...func(*testing.T, *engine.Table)) func(*testing.T, *engine.Table) {
	return func(t *testing.T, tb *engine.Table) {
		for _, f := range fs {
			f(t, tb)
		}
	}
}

// The five "Combat multiple" examples of the rulebook
// (shared/seeds/004_7e89a31e83c7ed72.txt, "Combats multiples"), with values
// chosen to satisfy each example's text, plus the 1 against 1 example of
// "Résolution du combat".
var bookCombats = []meleeCase{
	{
		// "Résolution du combat": attack 3 against toughness 3 kills the
		// defender; defence 2 against toughness 4 leaves the attacker.
		name:       "Résolution du combat: 1 against 1",
		disks:      []models.Disk{fighter("att", "A", 3, 0, 2.5, 1, 3, 1, 4), fighter("def", "B", 0, 0, 2.5, 0, 1, 2, 3)},
		pre:        onTop("att", "def"),
		casualties: []string{"def"},
		damage:     map[string]int{"att": 2},
		combats:    1,
		strikes:    map[string]string{"att": "def", "def": "att"},
	},
	{
		// Example 1: A attacked B1, B2 attacked A. B2's attack equals A's
		// toughness, A's defence equals B2's toughness: both die, B1 does
		// not even fight.
		name: "Combat multiple, exemple 1: B2 and A destroy each other, B1 does not fight",
		disks: []models.Disk{
			fighter("B1", "b", 0, 0, 2.5, 0, 2, 2, 2),
			fighter("A", "a", 3, 0, 2.5, 1, 3, 3, 3),
			fighter("B2", "b", 6, 0, 2.5, 2, 3, 2, 3),
		},
		pre:        all(onTop("A", "B1"), onTop("B2", "A")),
		casualties: []string{"B2", "A"},
		damage:     map[string]int{},
		combats:    1,
		strikes:    map[string]string{"B2": "A", "A": "B2"},
		noStrike:   [][2]string{{"A", "B1"}, {"B1", "A"}},
	},
	{
		// Example 2: A attacked B, C attacked A and lies on B too. C
		// destroys A and survives; C has used its one attack, so B is
		// blocked by C but no combat is resolved between them (B's
		// defence 4 would have killed C).
		name: "Combat multiple, exemple 2: C destroys A; B and C do not fight",
		disks: []models.Disk{
			fighter("B", "b", 0, 0, 2.5, 0, 2, 4, 3),
			fighter("A", "a", 3, 0, 2.5, 1, 3, 1, 3),
			fighter("C", "c", 1.5, 3, 2.5, 2, 4, 2, 3),
		},
		pre:        all(onTop("A", "B"), onTop("C", "A"), onTop("C", "B")),
		casualties: []string{"A"},
		damage:     map[string]int{"C": 1},
		combats:    1,
		strikes:    map[string]string{"C": "A", "A": "C"},
		noStrike:   [][2]string{{"B", "C"}, {"C", "B"}, {"A", "B"}},
	},
	{
		// Example 3: same pile; C is destroyed by A's defence and deals 2
		// damage to A (toughness 4, 2 left); A then attacks B and the two
		// destroy each other: all three leave.
		name: "Combat multiple, exemple 3: C dies, then A and B destroy each other",
		disks: []models.Disk{
			fighter("B", "b", 0, 0, 2.5, 0, 2, 2, 3),
			fighter("A", "a", 3, 0, 2.5, 1, 3, 3, 4),
			fighter("C", "c", 1.5, 3, 2.5, 2, 2, 1, 3),
		},
		pre:        all(onTop("A", "B"), onTop("C", "A"), onTop("C", "B")),
		casualties: []string{"C", "A", "B"},
		damage:     map[string]int{},
		combats:    2,
		strikes:    map[string]string{"C": "A", "A": "B", "B": "A"},
		noStrike:   [][2]string{{"B", "C"}, {"C", "B"}},
	},
	{
		// Example 4: A (attack 2) and C (attack 3) attack B together: 5 is
		// at least B's toughness. B answers C, whose toughness is lower
		// than A's, and destroys it. B and C leave, A survives.
		name: "Combat multiple, exemple 4: combined attack; B answers C",
		disks: []models.Disk{
			fighter("B", "b", 0, 0, 2.5, 0, 1, 3, 4),
			fighter("A", "a", -3, 0, 2.5, 1, 2, 1, 4),
			fighter("C", "a", 3, 0, 2.5, 1, 3, 1, 2),
		},
		pre:        all(onTop("A", "B"), onTop("C", "B")),
		casualties: []string{"B", "C"},
		damage:     map[string]int{},
		combats:    1,
		strikes:    map[string]string{"A": "B", "C": "B", "B": "C"},
		noStrike:   [][2]string{{"B", "A"}},
	},
	{
		// Example 5: B lies on A and C; not reckless, it attacks A only
		// (attack 5) and destroys it; A and C combine their defences,
		// 2+2=4, and destroy B (toughness 4). C remains.
		name: "Combat multiple, exemple 5: B attacks A; A and C combine their defences",
		disks: []models.Disk{
			withTarget(fighter("B", "b", 0, 0, 2.5, 1, 5, 1, 4), "A"),
			fighter("A", "a", -3, 0, 2.5, 0, 1, 2, 3),
			fighter("C", "a", 3, 0, 2.5, 0, 1, 2, 3),
		},
		pre:        all(onTop("B", "A"), onTop("B", "C")),
		casualties: []string{"A", "B"},
		damage:     map[string]int{},
		combats:    1,
		strikes:    map[string]string{"B": "A", "A": "B", "C": "B"},
		noStrike:   [][2]string{{"B", "C"}},
	},
}

func TestBookCombats(t *testing.T) {
	for _, tc := range append(bookCombats, ruleCombats...) {
		t.Run(tc.name, func(t *testing.T) {
			l := layoutOf(tc.disks...)
			tb := engine.NewTable(l)
			if tc.pre != nil {
				tc.pre(t, tb)
			}
			r := resolve(t, l)
			if !sameSet(r.Casualties, tc.casualties) {
				t.Errorf("casualties: got %v, want %v", r.Casualties, tc.casualties)
			}
			if !maps.Equal(r.Damage, tc.damage) {
				t.Errorf("damage held: got %v, want %v", r.Damage, tc.damage)
			}
			if len(r.Combats) != tc.combats {
				t.Errorf("combats: got %d (%+v), want %d", len(r.Combats), r.Combats, tc.combats)
			}
			got := map[[2]string]bool{}
			for _, c := range r.Combats {
				for _, s := range c.Strikes {
					got[[2]string{s.From, s.To}] = true
				}
			}
			for from, to := range tc.strikes {
				if !got[[2]string{from, to}] {
					t.Errorf("strike %s -> %s: got none, want one (strikes %v)", from, to, got)
				}
			}
			for _, p := range tc.noStrike {
				if got[p] {
					t.Errorf("strike %s -> %s: got one, want none", p[0], p[1])
				}
			}
		})
	}
}

// ruleCombats are the special abilities of "Autres règles importantes".
var ruleCombats = []meleeCase{
	{
		// "Rapidité": a combat that would destroy both; the swift attacker
		// destroys the defender before it can answer.
		name:       "Rapidité: the swift attacker kills before the answer",
		disks:      []models.Disk{fighter("att", "A", 3, 0, 2.5, 1, 3, 1, 3, "swift"), fighter("def", "B", 0, 0, 2.5, 0, 1, 3, 3)},
		casualties: []string{"def"},
		damage:     map[string]int{},
		combats:    1,
		strikes:    map[string]string{"att": "def"},
		noStrike:   [][2]string{{"def", "att"}},
	},
	{
		name:       "Rapidité: a swift attacker that does not kill is answered",
		disks:      []models.Disk{fighter("att", "A", 3, 0, 2.5, 1, 2, 1, 3, "swift"), fighter("def", "B", 0, 0, 2.5, 0, 1, 3, 3)},
		casualties: []string{"att"},
		damage:     map[string]int{"def": 2},
		combats:    1,
		strikes:    map[string]string{"att": "def", "def": "att"},
	},
	{
		name:       "Rapidité only helps an attacker: a swift defender answers at the same time",
		disks:      []models.Disk{fighter("att", "A", 3, 0, 2.5, 1, 3, 1, 3), fighter("def", "B", 0, 0, 2.5, 0, 1, 3, 3, "swift")},
		casualties: []string{"att", "def"},
		damage:     map[string]int{},
		combats:    1,
	},
	{
		// "Téméraire", the book's example: two disks attack a reckless
		// disk, which applies its defence to both.
		name: "Téméraire: the reckless defender answers both attackers",
		disks: []models.Disk{
			fighter("B", "b", 0, 0, 2.5, 0, 1, 3, 9, "reckless"),
			fighter("A", "a", -3, 0, 2.5, 1, 2, 1, 3),
			fighter("C", "a", 3, 0, 2.5, 1, 3, 1, 3),
		},
		casualties: []string{"A", "C"},
		damage:     map[string]int{"B": 5},
		combats:    1,
		strikes:    map[string]string{"B": "A", "A": "B", "C": "B"},
	},
	{
		name: "Téméraire: a reckless attacker strikes every disk it lies on",
		disks: []models.Disk{
			fighter("B", "b", 0, 0, 2.5, 1, 3, 1, 9, "reckless"),
			fighter("A", "a", -3, 0, 2.5, 0, 1, 2, 3),
			fighter("C", "a", 3, 0, 2.5, 0, 1, 2, 3),
		},
		casualties: []string{"A", "C"},
		damage:     map[string]int{"B": 4},
		combats:    1,
		strikes:    map[string]string{"B": "A", "A": "B", "C": "B"},
	},
	{
		// Berserk after attacking last turn: 5/3/4 becomes 7/5/6 (Tribu
		// d'Ulc); attack 7 now kills a toughness-7 defender whose defence 5
		// no longer kills it.
		name: "Berserk: Tribu d'Ulc at 7/5/6 kills a toughness-7 defender and survives defence 5",
		disks: []models.Disk{
			func() models.Disk {
				d := fighter("ulc", "orcs", 3, 0, 2.5, 1, 5, 3, 4, "berserk")
				d.AttackedLastTurn = true
				return d
			}(),
			fighter("def", "elves", 0, 0, 2.5, 0, 1, 5, 7),
		},
		casualties: []string{"def"},
		damage:     map[string]int{"ulc": 5},
		combats:    1,
	},
	{
		name:       "Berserk without an attack last turn keeps 5/3/4",
		disks:      []models.Disk{fighter("ulc", "orcs", 3, 0, 2.5, 1, 5, 3, 4, "berserk"), fighter("def", "elves", 0, 0, 2.5, 0, 1, 5, 7)},
		casualties: []string{"ulc"},
		damage:     map[string]int{"def": 5},
		combats:    1,
	},
	{
		name: "friends lying on each other do not fight",
		disks: []models.Disk{
			fighter("a1", "a", 0, 0, 2.5, 0, 9, 9, 1),
			fighter("a2", "a", 3, 0, 2.5, 1, 9, 9, 1),
		},
		casualties: []string{},
		damage:     map[string]int{},
		combats:    0,
	},
	{
		// "Si deux Disks ennemis se chevauchent, ils doivent se combattre":
		// C lies on its friend A and on the enemy B that A lies on; A does
		// not shield B from C, and both strike B together.
		name: "a friend lying on an enemy does not shield it",
		disks: []models.Disk{
			fighter("B", "blue", 0, 0, 2.5, 0, 1, 1, 3),
			fighter("A", "red", 3, 0, 2.5, 1, 1, 1, 9),
			fighter("C", "red", 1.5, 3, 2.5, 2, 5, 1, 9),
		},
		pre:        all(onTop("C", "B"), onTop("A", "B")),
		casualties: []string{"B"},
		damage:     map[string]int{"A": 1},
		combats:    1,
		strikes:    map[string]string{"C": "B", "A": "B"},
	},
	{
		// Téméraire: "peuvent attaquer tous les Disks qu'ils chevauchent".
		// Example 2's pile, C reckless: it strikes A and B beneath it,
		// where a plain C strikes only A.
		name: "a reckless disk strikes every enemy it lies on",
		disks: []models.Disk{
			fighter("B", "b", 0, 0, 2.5, 0, 1, 1, 3),
			fighter("A", "a", 3, 0, 2.5, 1, 1, 1, 3),
			fighter("C", "c", 1.5, 3, 2.5, 2, 5, 1, 9, "reckless"),
		},
		pre:        all(onTop("C", "B"), onTop("C", "A"), onTop("A", "B")),
		casualties: []string{"A", "B"},
		damage:     map[string]int{"C": 2}, // A and B both answer
		combats:    1,
		strikes:    map[string]string{"C": "B"},
	},
	{
		// "Si plusieurs Disks attaquent un même adversaire ils doivent
		// combiner leur puissance totale", top down: C first defends
		// against D, then joins A on B; B answers one of them.
		name: "attackers of one disk wait for one still under attack",
		disks: []models.Disk{
			fighter("B", "blue", 0, 0, 2.5, 0, 0, 3, 4),
			fighter("A", "red", -3, 0, 2.5, 1, 2, 1, 3),
			fighter("C", "red", 3, 0, 2.5, 1, 2, 0, 3),
			fighter("D", "blue", 5.5, 0, 2.5, 2, 0, 0, 9),
		},
		pre:        all(onTop("D", "C"), onTop("A", "B"), onTop("C", "B")),
		casualties: []string{"A", "B"},
		damage:     map[string]int{},
		combats:    2,
		strikes:    map[string]string{"D": "C", "C": "B"},
	},
	{
		// "Après qu'un combat a été résolu, les Disks éliminés sont
		// immédiatement retirés": A, between C and B, covers their whole
		// lens; once B's defence destroys A, C lies on B and fights it.
		name: "a destroyed disk no longer keeps the disks above and below it apart",
		disks: []models.Disk{
			fighter("B", "blue", 0, 0, 2.5, 0, 1, 5, 3),
			fighter("A", "red", 2, 0, 2.5, 1, 1, 0, 1),
			fighter("C", "red", 4.5, 0, 2.5, 2, 5, 1, 9),
		},
		pre: all(onTop("C", "A"), onTop("A", "B"), func(t *testing.T, tb *engine.Table) {
			c, _ := tb.Index("C")
			b, _ := tb.Index("B")
			if !tb.Overlap(c, b) || tb.OnTop(c, b) {
				t.Fatal("test layout: C should overlap B, kept apart by A")
			}
		}),
		casualties: []string{"A", "B"},
		damage:     map[string]int{"C": 5},
		combats:    2,
		strikes:    map[string]string{"A": "B", "C": "B"},
	},
	{
		name: "momentary damage that does not wound vanishes",
		disks: []models.Disk{
			fighter("att", "A", 3, 0, 2.5, 1, 3, 1, 9, "momentary"),
			fighter("def", "B", 0, 0, 2.5, 0, 1, 1, 4),
		},
		casualties: []string{},
		damage:     map[string]int{"att": 1},
		combats:    1,
	},
}

func TestBerserkValues(t *testing.T) {
	// "Berserk", the book's example: Tribu d'Ulc AT=5 D=3 E=4 becomes
	// AT=7 D=5 E=6 after an attack.
	d := fighter("ulc", "orcs", 0, 0, 2.5, 0, 5, 3, 4, "berserk")
	for _, tc := range []struct {
		last          bool
		at, def, toug int
	}{{false, 5, 3, 4}, {true, 7, 5, 6}} {
		d.AttackedLastTurn = tc.last
		c, err := CreatureOf(d)
		if err != nil {
			t.Fatal(err)
		}
		if c.Attack != tc.at || c.Defense != tc.def || c.Toughness != tc.toug {
			t.Errorf("attacked last turn %v: got %d/%d/%d, want %d/%d/%d", tc.last, c.Attack, c.Defense, c.Toughness, tc.at, tc.def, tc.toug)
		}
	}
}

func TestDefenderChoiceFollowsTarget(t *testing.T) {
	// Example 4 again, but B chooses A (toughness 4): defence 3 leaves A
	// with 3 damage and C survives.
	disks := []models.Disk{
		withTarget(fighter("B", "b", 0, 0, 2.5, 0, 1, 3, 4), "A"),
		fighter("A", "a", -3, 0, 2.5, 1, 2, 1, 4),
		fighter("C", "a", 3, 0, 2.5, 1, 3, 1, 2),
	}
	r := resolve(t, layoutOf(disks...))
	if !sameSet(r.Casualties, []string{"B"}) {
		t.Errorf("casualties: got %v, want [B]", r.Casualties)
	}
	if r.Damage["A"] != 3 {
		t.Errorf("damage on A: got %d, want 3", r.Damage["A"])
	}
}

func TestTargetOutsideCombatWarns(t *testing.T) {
	disks := []models.Disk{
		withTarget(fighter("B", "b", 0, 0, 2.5, 1, 5, 1, 4), "nowhere"),
		fighter("A", "a", -3, 0, 2.5, 0, 1, 2, 3),
		fighter("C", "a", 3, 0, 2.5, 0, 1, 2, 4),
	}
	r := resolve(t, layoutOf(disks...))
	if len(r.Warnings) == 0 {
		t.Errorf("warnings: got none, want one about target %q", "nowhere")
	}
	if !sameSet(r.Casualties, []string{"A", "B"}) {
		t.Errorf("casualties: got %v, want the default choice A (least toughness) and B", r.Casualties)
	}
}

func TestMissingStatIsAnError(t *testing.T) {
	a := fighter("att", "A", 3, 0, 2.5, 1, 3, 1, 4)
	b := fighter("def", "B", 0, 0, 2.5, 0, 1, 2, 3)
	delete(b.Stats, "toughness")
	_, err := Resolve(engine.NewTable(layoutOf(a, b)))
	var me *MissingStatError
	if !errorsAs(err, &me) || me.Disk != "def" || me.Stat != "toughness" {
		t.Errorf("got %v, want a MissingStatError for def's toughness", err)
	}
}

func BenchmarkResolveGolden(b *testing.B) {
	l, err := models.Load("testdata/turn.json")
	if err != nil {
		b.Fatal(err)
	}
	tb := engine.NewTable(l)
	for b.Loop() {
		if _, err := Resolve(tb); err != nil {
			b.Fatal(err)
		}
	}
}

// TestOwnDisksDoNotFight: "Si deux Disks ennemis se chevauchent, ils
// doivent se combattre" ("Combat", shared/seeds/004_7e89a31e83c7ed72.txt):
// two disks of one player are not enemies, even when only one of them
// carries a side (/tmp/rev-dw/sideowner.json).
func TestOwnDisksDoNotFight(t *testing.T) {
	p := fighter("P", "ann", 20, 20, 2.5, 0, 2, 2, 3)
	p.Side = "good"
	q := fighter("Q", "ann", 23, 20, 2.5, 1, 4, 2, 3)
	r := resolve(t, layoutOf(p, q))
	if len(r.Combats) != 0 || len(r.Casualties) != 0 {
		t.Errorf("got combats %+v, casualties %v; want none", r.Combats, r.Casualties)
	}
	if !reflect.DeepEqual(r.Blocked, []string{"P"}) {
		t.Errorf("blocked: got %v, want [P] (a friend lying on a disk blocks it too)", r.Blocked)
	}
}

// TestControllerWithSidesOnSomeDisks: absolute control ("aucun Disk
// ennemi ne doit être parvenu au contact") checks every pair of disks on
// the terrain: P (ann, good) is a friend of Q (ann, no side) and of R
// (bob, good), but Q and R are enemies.
func TestControllerWithSidesOnSomeDisks(t *testing.T) {
	p := fighter("P", "ann", 60, 38, 2.5, 1, 2, 2, 2)
	p.Side = "good"
	q := fighter("Q", "ann", 66, 45, 2.5, 1, 2, 2, 2)
	rr := fighter("R", "bob", 54, 45, 2.5, 1, 2, 2, 2)
	rr.Side = "good"
	tb := scenarioTable(p, q, rr)
	ci, _ := CentralTerrain(tb)
	if got := Controller(tb, ci); got != "" {
		t.Errorf("got %q, want nobody (Q and R are enemies)", got)
	}
}
