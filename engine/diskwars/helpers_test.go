package diskwars

import (
	"slices"
	"testing"

	"tableref/engine"
	"tableref/models"
)

// fighter builds a creature disk for tests: id, owner, centre, radius,
// stacking level and attack/defense/toughness.
func fighter(id, owner string, x, y, r float64, z, at, def, tough int, kw ...string) models.Disk {
	return models.Disk{ID: id, Owner: owner, Kind: models.KindCreature,
		X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r), Z: z,
		Stats:    models.Stats{"attack": at, "defense": def, "toughness": tough, "movement": 3},
		Keywords: kw}
}

func layoutOf(disks ...models.Disk) models.Layout {
	return models.Layout{Version: 1, Source: "test", Disks: disks}
}

func resolve(t *testing.T, l models.Layout) Result {
	t.Helper()
	r, err := Resolve(engine.NewTable(l))
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	checkInvariants(t, l, r)
	return r
}

// checkInvariants checks what must hold after any resolution: no negative
// damage, no disk both a casualty and holding wounds or damage, no
// casualty twice, survivors' wounds below their wounds.
func checkInvariants(t *testing.T, l models.Layout, r Result) {
	t.Helper()
	dead := map[string]bool{}
	for _, id := range r.Casualties {
		if dead[id] {
			t.Errorf("invariant: %s is a casualty twice", id)
		}
		dead[id] = true
	}
	for id, v := range r.Damage {
		if v < 0 || dead[id] {
			t.Errorf("invariant: damage %s=%d (casualty %v)", id, v, dead[id])
		}
	}
	for id, v := range r.Dealt {
		if v < 0 {
			t.Errorf("invariant: dealt %s=%d", id, v)
		}
	}
	for id, w := range r.Wounds {
		d, _ := l.Disk(id)
		c, err := CreatureOf(d)
		if dead[id] || w <= 0 || (err == nil && w >= c.Wounds) {
			t.Errorf("invariant: wounds %s=%d of %d (casualty %v)", id, w, c.Wounds, dead[id])
		}
	}
	for _, c := range r.Creatures {
		if r.Damage[c.ID] >= c.Toughness {
			t.Errorf("invariant: %s holds %d damage, not below its toughness %d", c.ID, r.Damage[c.ID], c.Toughness)
		}
	}
	for _, c := range r.Combats {
		for _, s := range c.Strikes {
			from, to := c.Attackers, c.Defenders
			if s.As == "defense" {
				from, to = to, from
			}
			if !slices.Contains(from, s.From) || !slices.Contains(to, s.To) {
				t.Errorf("invariant: combat %s (%v on %v) has the strike %s -> %s (%s) outside it", c.ID, c.Attackers, c.Defenders, s.From, s.To, s.As)
			}
		}
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		m[x]--
	}
	for _, v := range m {
		if v != 0 {
			return false
		}
	}
	return true
}

func withTarget(d models.Disk, target string) models.Disk {
	d.Target = target
	return d
}
