package whdiskwars

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// randomTable makes a crowded table: n disks of two or three sides piled
// at random levels, every one with random stats and melee keywords.
func randomTable(rng *rand.Rand) *engine.Table {
	sides := []string{"red", "blue", "green"}[:2+rng.IntN(2)]
	kws := []string{"swift", "slow", "swift:strength", "swift:counter", "slow:strength", "slow:counter", "frenzy", "resistant:physical", "immune:physical", "on-engage"}
	n := 4 + rng.IntN(20)
	l := models.Layout{Version: models.Version, Source: "random"}
	for i := range n {
		d := models.Disk{
			ID: fmt.Sprintf("d%d", i), Side: sides[rng.IntN(len(sides))], Kind: models.KindCreature,
			X: models.Centimetres(rng.Float64() * 25), Y: models.Centimetres(rng.Float64() * 25),
			R: models.Centimetres(2 + rng.Float64()*1.5), Z: rng.IntN(6),
			Stats: models.Stats{StatStrength: rng.IntN(8), StatCounter: rng.IntN(6), StatToughness: 1 + rng.IntN(8), StatStamina: rng.IntN(3)},
		}
		d.Damage = rng.IntN(d.Stats[StatToughness])
		for range rng.IntN(3) {
			d.Keywords = append(d.Keywords, kws[rng.IntN(len(kws))])
		}
		l.Disks = append(l.Disks, d)
	}
	return engine.NewTable(l)
}

// Invariants of the split, the order and the melee on random tables: every
// disk attacks in one engagement at most and defends in one at most; every
// enemy pin lies inside one engagement; the order is a permutation that
// keeps every constraint outside a cycle; no damage is negative; a
// casualty never strikes again; the analysis is deterministic.
func TestPropertiesOnRandomTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(2014, 3))
	var seen struct{ engagements, embattled, cycles, casualties, fresh, sameEngagement int }
	for k := range 300 {
		tbl := randomTable(rng)
		a, err := Run(tbl)
		if err != nil {
			t.Fatalf("table %d: %v", k, err)
		}
		o := a.Outcome()
		name := fmt.Sprintf("table %d", k)
		seen.engagements += len(o.Engagements)
		seen.embattled += len(o.Embattled)
		seen.cycles += len(a.Cycles)
		seen.casualties += len(o.Melee.Casualties)
		seen.fresh += len(a.Result.New)
		_, same := ResolveBefore(a.Split)
		seen.sameEngagement += len(same)
		checkSplit(t, name, tbl, o)
		checkOrder(t, name, a)
		checkMelee(t, name, a, o)
		again, _ := Run(tbl)
		j1, _ := json.Marshal(o)
		j2, _ := json.Marshal(again.Outcome())
		if string(j1) != string(j2) {
			t.Fatalf("%s: two runs differ", name)
		}
	}
	// The generator must reach the hard cases, or the test proves little.
	if seen.embattled == 0 || seen.cycles == 0 || seen.casualties == 0 || seen.fresh == 0 || seen.sameEngagement == 0 {
		t.Errorf("random tables reached too little: %+v", seen)
	}
	t.Logf("random tables reached: %+v", seen)
}

func checkSplit(t *testing.T, name string, tbl *engine.Table, o engine.Outcome) {
	t.Helper()
	attackIn, defendIn := map[string]string{}, map[string]string{}
	for _, g := range o.Engagements {
		for _, id := range g.Attackers {
			if prev, dup := attackIn[id]; dup {
				t.Fatalf("%s: %s attacks in %s and %s", name, id, prev, g.ID)
			}
			attackIn[id] = g.ID
		}
		for _, id := range g.Defenders {
			if prev, dup := defendIn[id]; dup {
				t.Fatalf("%s: %s defends in %s and %s", name, id, prev, g.ID)
			}
			defendIn[id] = g.ID
		}
	}
	pins := 0
	for _, c := range tbl.Contacts() {
		if !models.Enemies(tbl.Disk(c.Top), tbl.Disk(c.Bottom)) {
			continue
		}
		pins++
		top, bottom := tbl.ID(c.Top), tbl.ID(c.Bottom)
		if attackIn[top] == "" || attackIn[top] != defendIn[bottom] {
			t.Fatalf("%s: %s pins %s but they are not attacker and defender of one engagement", name, top, bottom)
		}
	}
	if pins > 0 && len(o.Engagements) == 0 || pins == 0 && len(o.Engagements) > 0 {
		t.Fatalf("%s: %d enemy pins, %d engagements", name, pins, len(o.Engagements))
	}
	var embattled []string
	for i := range tbl.Len() {
		if id := tbl.ID(i); attackIn[id] != "" && defendIn[id] != "" {
			embattled = append(embattled, id)
		}
	}
	if !sameStrings(embattled, o.Embattled) {
		t.Fatalf("%s: embattled: got %v, want %v", name, o.Embattled, embattled)
	}
}

func checkOrder(t *testing.T, name string, a Analysis) {
	t.Helper()
	n := len(a.Split.Engagements)
	pos := filled(n, -1)
	for k, e := range a.Plan.Order {
		if pos[e] >= 0 {
			t.Fatalf("%s: engagement %d resolved twice", name, e)
		}
		pos[e] = k
	}
	if len(a.Plan.Order) != n {
		t.Fatalf("%s: order %v is not a permutation of %d engagements", name, a.Plan.Order, n)
	}
	inCycle := map[[2]int]bool{}
	for _, c := range a.Cycles {
		for _, x := range c {
			for _, y := range c {
				inCycle[[2]int{x, y}] = true
			}
		}
	}
	for _, p := range a.ResolveBefore {
		if pos[p[0]] > pos[p[1]] && !inCycle[p] {
			t.Fatalf("%s: constraint %v outside a cycle broken by order %v", name, p, a.Plan.Order)
		}
	}
	for _, p := range a.Plan.Overruled {
		if !inCycle[p] || pos[p[0]] < pos[p[1]] {
			t.Fatalf("%s: overruled %v is not a broken constraint inside a cycle", name, p)
		}
	}
}

func checkMelee(t *testing.T, name string, a Analysis, o engine.Outcome) {
	t.Helper()
	dead := map[string]bool{}
	for _, ev := range o.Log {
		if ev.Amount < 0 {
			t.Fatalf("%s: negative amount in %q", name, ev.Text)
		}
		switch ev.Kind {
		case "casualty":
			if dead[ev.To] {
				t.Fatalf("%s: %s destroyed twice", name, ev.To)
			}
			dead[ev.To] = true
		case "damage":
			if dead[ev.From] {
				t.Fatalf("%s: %s strikes after being destroyed: %q", name, ev.From, ev.Text)
			}
		}
	}
	for i, h := range a.Result.Health {
		id := a.Table.ID(i)
		if h.Damage < 0 || h.Wounds < 0 {
			t.Fatalf("%s: %s has negative damage or wounds: %+v", name, id, h)
		}
		if a.Result.Removed[i] != dead[id] || slices.Contains(o.Melee.Casualties, id) != dead[id] {
			t.Fatalf("%s: %s removed %v, casualty event %v, listed %v", name, id, a.Result.Removed[i], dead[id], o.Melee.Casualties)
		}
		if !a.Result.Removed[i] && a.Split.AttackIn[i]+a.Split.DefendIn[i] > -2 && h.Damage >= h.Toughness {
			t.Fatalf("%s: %s survives with damage %d at least its toughness %d", name, id, h.Damage, h.Toughness)
		}
	}
	for id := range o.Melee.Damage {
		if dead[id] {
			t.Fatalf("%s: casualty %s still listed with damage", name, id)
		}
	}
	checkOneTarget(t, name, a, o)
}

// checkOneTarget: "Each disk can only deal damage to a single enemy during
// an engagement", unless it attacks with Frenzy.
func checkOneTarget(t *testing.T, name string, a Analysis, o engine.Outcome) {
	t.Helper()
	targets := map[string]map[string]bool{}
	for _, ev := range o.Log {
		if ev.Kind != "damage" {
			continue
		}
		i, _ := a.Table.Index(ev.From)
		j, _ := a.Table.Index(ev.To)
		attacking := a.Relation.Has(i, j)
		if attacking && a.Fighters[i].Profile.Frenzy {
			continue
		}
		key := fmt.Sprint(ev.Engagement, ev.From, attacking)
		if targets[key] == nil {
			targets[key] = map[string]bool{}
		}
		targets[key][ev.To] = true
		if len(targets[key]) > 1 {
			t.Fatalf("%s: %s strikes %v in %s", name, ev.From, targets[key], ev.Engagement)
		}
	}
}

// "An engagement_order the rules do not allow is followed as far as it can
// be, with a warning": on random tables with a random partial order, the
// warning comes exactly when some engagement is resolved before one the
// first player named earlier (unnamed ones count as named last).
func TestExplicitOrderWarnsWheneverItIsNotFollowed(t *testing.T) {
	rng := rand.New(rand.NewPCG(2014, 8))
	var seen struct{ followed, overridden int }
	for k := range 300 {
		tbl := randomTable(rng)
		first, err := Run(tbl)
		if err != nil {
			t.Fatalf("table %d: %v", k, err)
		}
		var names []string
		for _, e := range rng.Perm(len(first.Split.Engagements)) {
			if rng.IntN(3) > 0 {
				names = append(names, first.Split.Engagements[e].ID)
			}
		}
		order, _ := json.Marshal(names)
		l := tbl.Layout().Clone()
		setOption(&l, "engagement_order", string(order))
		a, err := Run(engine.NewTable(l))
		if err != nil {
			t.Fatalf("table %d: %v", k, err)
		}
		rank, _, _, _ := ExplicitOrder(a.Table, a.Split)
		decreases := !slices.IsSortedFunc(a.Plan.Order, func(x, y int) int { return cmp.Compare(rank[x], rank[y]) })
		warned := slices.ContainsFunc(a.Warnings, func(w string) bool { return strings.Contains(w, "cannot be followed") })
		if decreases != warned {
			t.Fatalf("table %d, engagement_order %s: resolved %v, rank decreases %v, warned %v: %q", k, order, a.ids(a.Plan.Order), decreases, warned, a.Warnings)
		}
		if decreases {
			seen.overridden++
		} else {
			seen.followed++
		}
	}
	if seen.followed == 0 || seen.overridden == 0 {
		t.Errorf("random orders reached too little: %+v", seen)
	}
	t.Logf("random orders: %+v", seen)
}
