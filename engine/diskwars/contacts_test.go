package diskwars

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// spellSandwich is the reviewer's table (/tmp/rev-dw/spell-sandwich.json):
// creature C (z 0), the Bouclier reminder S on it (z 1, target C), and the
// enemy A (z 2) lying on C over S; the arrow t1 touches C and A.
func spellSandwich() models.Layout {
	c := fighter("C", "bob", 20, 20, 2.5, 0, 2, 2, 3)
	s := models.Disk{ID: "S", Name: "Bouclier", Kind: models.KindSpell, Target: "C", X: 20, Y: 20, R: 2.5, Z: 1}
	a := fighter("A", "ann", 24, 20, 2.5, 2, 7, 2, 3)
	l := layoutOf(c, s, a)
	l.Tokens = []models.Token{arrowAt("t1", 22.2, 20)}
	return l
}

// TestSpellDiskDoesNotKeepCreaturesApart: "En contact": "S'il y a un Disk
// entre deux Disks qui se chevauchent, ils ne se touchent pas", and the
// "Note importante": "quand nous ferons référence à un Disk, il sera
// question de créature" (shared/seeds/004_7e89a31e83c7ed72.txt). A spell
// disk between two creatures is not a Disk: A lies on C, blocks it, and
// fights it; and "Tirer": "si un Disk en bloque un autre et que le
// projectile touche les deux, seul celui qui se trouve au-dessus subit des
// dommages": the arrow hits A only. The report's geometry keeps the
// spec's contact relation.
func TestSpellDiskDoesNotKeepCreaturesApart(t *testing.T) {
	l := spellSandwich()
	tb := engine.NewTable(l)
	ia, _ := tb.Index("A")
	ic, _ := tb.Index("C")
	if tb.OnTop(ia, ic) {
		t.Fatalf("test layout: in the spec's geometry the spell disk should keep A off C")
	}
	t.Run("the arrow hits only the upper creature", func(t *testing.T) {
		hits := MissileHits(tb)
		if len(hits) != 1 || !reflect.DeepEqual(hits[0].Disks, []string{"A"}) {
			t.Errorf("got hits %+v, want t1 on A only", hits)
		}
	})
	t.Run("A blocks C and attacks it", func(t *testing.T) {
		if !Blocked(tb, ic) || !Attacking(tb, ia) {
			t.Errorf("got C blocked %v, A attacking %v; want both", Blocked(tb, ic), Attacking(tb, ia))
		}
		r := resolve(t, l)
		if !reflect.DeepEqual(r.Blocked, []string{"C"}) {
			t.Errorf("blocked: got %v, want [C]", r.Blocked)
		}
		if len(r.Combats) != 1 || !reflect.DeepEqual(r.Combats[0].Attackers, []string{"A"}) || !reflect.DeepEqual(r.Combats[0].Defenders, []string{"C"}) {
			t.Fatalf("combats: got %+v, want A against C", r.Combats)
		}
		// Bouclier: C has toughness 6; arrow 2 on A, A's attack 7 kills C,
		// C's defence 2 on A: 4 against 3, A dies too.
		if !sameSet(r.Casualties, []string{"A", "C"}) || r.Dealt["C"] != 7 || r.Dealt["A"] != 4 {
			t.Errorf("got casualties %v, dealt %v; want A and C, C 7, A 4", r.Casualties, r.Dealt)
		}
	})
	t.Run("the report's contacts stay geometric", func(t *testing.T) {
		rep, err := engine.Analyze(l, Ruleset{})
		if err != nil {
			t.Fatal(err)
		}
		want := []engine.ContactIDs{{Top: "S", Bottom: "C"}, {Top: "A", Bottom: "S"}}
		if !reflect.DeepEqual(rep.Contacts, want) {
			t.Errorf("contacts: got %+v, want %+v", rep.Contacts, want)
		}
		if len(rep.Engagements) != 1 || len(rep.Hits) != 1 || !reflect.DeepEqual(rep.Hits[0].Disks, []string{"A"}) {
			t.Errorf("got engagements %+v, hits %+v; want one, t1 on A", rep.Engagements, rep.Hits)
		}
	})
	t.Run("activation status says C is blocked by A", func(t *testing.T) {
		l := spellSandwich()
		l.Players, l.FirstPlayer = []string{"ann", "bob"}, "ann"
		st, err := StatusOfActivation(engine.NewTable(l), nil, ActivationOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range st.Disks {
			if d.Disk == "C" && (d.MayActivate || !slices.Contains(d.Reasons, "it is blocked by A")) {
				t.Errorf("C: got may %v, reasons %v; want blocked by A", d.MayActivate, d.Reasons)
			}
		}
		if got := AvailableFrom(engine.NewTable(l)); got["bob"] != 0 {
			t.Errorf("available: got %v, want none for bob", got)
		}
	})
}

// TestCreatureBetweenKeepsDisksApart: the same pile with a creature in the
// middle: "Dans l'exemple 1 ..., le Disk A ne touche pas le Disk C"
// ("En contact"); only the middle one is in contact with both.
func TestCreatureBetweenKeepsDisksApart(t *testing.T) {
	l := layoutOf(
		fighter("C", "bob", 20, 20, 2.5, 0, 2, 2, 3),
		fighter("M", "bob", 20, 20, 2.5, 1, 1, 1, 3),
		fighter("A", "ann", 24, 20, 2.5, 2, 7, 2, 3),
	)
	tb := engine.NewTable(l)
	ia, _ := tb.Index("A")
	ic, _ := tb.Index("C")
	if slices.Contains(enemyPinned(tb, ia), ic) || slices.Contains(blockers(tb, ic), ia) {
		t.Errorf("A should not lie on C through the creature M")
	}
}

// TestSpentCreatureIsLeftOut: a disk whose wound markers reach its
// wounds "est détruit" ("Blessures") and "est retiré du jeu et ne pourra
// plus revenir en jeu": one still on the table is warned of, read as off
// the table, in contact or not, and never a casualty of this turn
// (/tmp/rev-dw/stale.json).
func TestSpentCreatureIsLeftOut(t *testing.T) {
	orc := fighter("orc", "bob", 20, 20, 2.5, 0, 2, 2, 3)
	orc.WoundsTaken = 1
	gob := fighter("gob", "bob", 60, 20, 2.5, 0, 2, 2, 3)
	gob.WoundsTaken = 1
	elf := fighter("elf", "ann", 23, 20, 2.5, 1, 1, 1, 3)
	l := layoutOf(orc, elf, gob)
	r := resolve(t, l)
	if len(r.Casualties) != 0 || len(r.Combats) != 0 || len(r.Blocked) != 0 {
		t.Errorf("got casualties %v, combats %d, blocked %v; want none", r.Casualties, len(r.Combats), r.Blocked)
	}
	if len(r.Wounds) != 0 {
		t.Errorf("wounds: got %v, want none (spent disks are not survivors)", r.Wounds)
	}
	var warned []string
	for _, w := range r.Warnings {
		if strings.Contains(w, "should already be off the table") {
			warned = append(warned, w)
		}
	}
	if len(warned) != 2 || !strings.Contains(warned[0], `"orc"`) || !strings.Contains(warned[1], `"gob"`) {
		t.Errorf("warnings: got %q, want one for orc and one for gob", r.Warnings)
	}
	if next := EndTurn(l, r); len(next.Disks) != 1 || next.Disks[0].ID != "elf" {
		t.Errorf("next turn: got disks %v, want the elf only", next.Disks)
	}
	l.Tokens = []models.Token{arrowAt("t1", 18.5, 20)}
	if r := resolve(t, l); len(r.Missiles[0].Disks) != 0 || len(r.Casualties) != 0 {
		t.Errorf("an arrow on the spent orc: got hits %v, casualties %v; want a miss", r.Missiles[0].Disks, r.Casualties)
	}
}
