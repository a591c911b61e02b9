package diskwars

import (
	"maps"
	"testing"

	"tableref/engine"
	"tableref/models"
)

func tok(id, kind string, x, y, r float64) models.Token {
	return models.Token{ID: id, Kind: kind, X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r)}
}

func TestProjectileTable(t *testing.T) {
	// "Tir": Flèche 30 cm 2, Carreau 30 cm 3, Boule de feu 15 cm 4,
	// Rocher 15 cm 5.
	for _, tc := range []struct {
		kind   string
		rng    models.Centimetres
		damage int
	}{{"arrow", 30, 2}, {"flèche", 30, 2}, {"bolt", 30, 3}, {"carreau", 30, 3},
		{"fireball", 15, 4}, {"boule de feu", 15, 4}, {"boulder", 15, 5}, {"rocher", 15, 5}} {
		p, ok := ProjectileOf(tc.kind)
		if !ok || p.Range != tc.rng || p.Damage != tc.damage {
			t.Errorf("%s: got %+v (%v), want range %v damage %d", tc.kind, p, ok, tc.rng, tc.damage)
		}
	}
	if _, ok := ProjectileOf("wound"); ok {
		t.Errorf("wound: got a projectile, want none")
	}
}

// TestMissileDropMarkersAtoE is the "Exemple de tir" of the rulebook
// ("Tirer"): markers A and E do no damage, C and D damage disk 2, and B
// damages disks 1 and 2 at once. The layout puts B across the gap between
// the two disks, A and E on the bare table, C on disk 2 and D lying on C
// and on the table beside disk 2 (a projectile on a projectile damages
// what lies under the lower one).
func TestMissileDropMarkersAtoE(t *testing.T) {
	l := layoutOf(fighter("disk1", "red", 0, 0, 3, 0, 1, 1, 9), fighter("disk2", "red", 7, 0, 3, 0, 1, 1, 9))
	l.Tokens = []models.Token{
		tok("A", "arrow", -10, 0, 0.8),
		tok("B", "arrow", 3.5, 0, 0.8),
		tok("C", "arrow", 7, 2.5, 0.8),
		tok("D", "arrow", 7, 3.9, 0.8),
		tok("E", "arrow", 20, 0, 0.8),
	}
	tb := engine.NewTable(l)
	want := map[string][]string{"A": {}, "B": {"disk1", "disk2"}, "C": {"disk2"}, "D": {"disk2"}, "E": {}}
	for _, h := range MissileHits(tb) {
		if !sameSet(h.Disks, want[h.Token]) || h.Missed != (len(want[h.Token]) == 0) {
			t.Errorf("marker %s: got %v (missed %v), want %v", h.Token, h.Disks, h.Missed, want[h.Token])
		}
	}
	r := resolve(t, l)
	if wantDealt := map[string]int{"disk1": 2, "disk2": 6}; !maps.Equal(r.Dealt, wantDealt) {
		t.Errorf("damage: got %v, want %v", r.Dealt, wantDealt)
	}
}

func TestMissileLayers(t *testing.T) {
	// "Tirer", exception: a projectile touching a disk and the disk that
	// blocks it damages only the upper one; with three layers, the top.
	l := layoutOf(
		fighter("low", "red", 0, 0, 3, 0, 1, 1, 9),
		fighter("mid", "red", 3, 0, 3, 1, 1, 1, 9),
		fighter("top", "red", 5, 0, 3, 2, 1, 1, 9),
	)
	l.Tokens = []models.Token{tok("t", "boulder", 2.5, 0, 0.8), tok("u", "bolt", 0, 2.5, 0.5)}
	r := resolve(t, l)
	if want := map[string]int{"top": 5, "low": 3}; !maps.Equal(r.Dealt, want) {
		t.Errorf("damage: got %v, want %v", r.Dealt, want)
	}
}

func TestMissileOnTerrainMisses(t *testing.T) {
	hill := models.Disk{ID: "hill", Kind: models.KindTerrain, Terrain: "hill", X: 0, Y: 0, R: 10}
	l := layoutOf(hill, fighter("d", "red", 0, 0, 2, 1, 1, 1, 3))
	l.Tokens = []models.Token{tok("on-hill", "arrow", 6, 0, 0.8), tok("on-d", "arrow", 1, 0, 0.8)}
	hits := MissileHits(engine.NewTable(l))
	if !hits[0].Missed || len(hits[1].Disks) != 1 || hits[1].Disks[0] != "d" {
		t.Errorf("got %+v, want the arrow on the hill to miss and the other to hit d", hits)
	}
}

func TestFriendlyFireAndMultiWound(t *testing.T) {
	// "erreur d'appréciation": a projectile on the shooter's own disk
	// damages it normally. Four bolts (12) on toughness 3, wounds 5: four
	// wounds, survives.
	big := fighter("big", "red", 0, 0, 4, 0, 1, 1, 3)
	big.Stats["wounds"] = 5
	l := layoutOf(big, fighter("archer", "red", 10, 0, 2, 0, 1, 1, 3))
	l.Disks[1].MissileKind, l.Disks[1].MissileCount = "bolt", 4
	for k, x := range []float64{-2, -1, 1, 2} {
		l.Tokens = append(l.Tokens, tok(string(rune('a'+k)), "bolt", x, 0, 0.5))
	}
	r := resolve(t, l)
	if r.Wounds["big"] != 4 || len(r.Casualties) != 0 {
		t.Errorf("got wounds %v casualties %v, want big with 4 wounds alive", r.Wounds, r.Casualties)
	}
	if len(r.MissileCasualties) != 0 {
		t.Errorf("missile casualties: got %v, want none", r.MissileCasualties)
	}
}

func TestShooters(t *testing.T) {
	// "Comment tirer": not activated, a target in range, not blocked, not
	// lying on an enemy. Ranges are edge to edge.
	archer := func(id string, x float64) models.Disk {
		d := fighter(id, "elves", x, 0, 2, 0, 1, 1, 2)
		d.MissileKind, d.MissileCount = "arrow", 4
		return d
	}
	activated := archer("activated", 0)
	activated.Activated = true
	blocked := archer("blocked", 100)
	onEnemy := archer("on-enemy", 200)
	onEnemy.Z = 1
	l := layoutOf(
		archer("free", 0),
		activated,
		blocked, fighter("blocker", "orcs", 102, 0, 2, 1, 1, 1, 2),
		onEnemy, fighter("under", "orcs", 202.5, 0, 2, 0, 1, 1, 2),
		archer("far", -60),
		fighter("orc", "orcs", 33.9, 0, 2, 0, 1, 1, 2), // edge 29.9 from free
	)
	ss, err := Shooters(engine.NewTable(l))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"free": true, "activated": false, "blocked": false, "on-enemy": false, "far": false}
	for _, s := range ss {
		if s.MayShoot != want[s.Disk] {
			t.Errorf("%s: may shoot got %v (%v), want %v", s.Disk, s.MayShoot, s.Reasons, want[s.Disk])
		}
		if s.Disk == "free" && (len(s.Targets) != 1 || s.Targets[0].Disk != "orc" || s.Targets[0].Edge != 29.9) {
			t.Errorf("free: targets got %+v, want orc at 29.9 cm", s.Targets)
		}
	}
	l.Disks[0].MissileKind = "catapult"
	if _, err := Shooters(engine.NewTable(l)); err == nil {
		t.Errorf("unknown missile kind: got no error, want one")
	}
}
