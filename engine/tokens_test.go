package engine

import (
	"slices"
	"testing"

	"tableref/models"
)

func tok(id, kind string, x, y, r float64) models.Token {
	return models.Token{ID: id, Kind: kind, X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(r)}
}

func intp(v int) *int { return &v }

func hitMap(tb *Table) map[string][]string {
	out := map[string][]string{}
	for k := range tb.TokenLen() {
		if tb.Token(k).IsProjectile() {
			out[tb.Token(k).ID] = tb.IDs(tb.Hits(k))
		}
	}
	return out
}

func TestProjectileHits(t *testing.T) {
	tests := []struct {
		name   string
		disks  []models.Disk
		tokens []models.Token
		want   map[string][]string
	}{
		{
			// Diskwars rulebook, "Tirer", the shooting example: markers A
			// and E do no damage, C and D damage Disk 2, B damages Disks 1
			// and 2 at once. The figure is not in the text; this is a table
			// that matches its description: two disks side by side, B
			// across the gap, A and E on the bare table.
			"rulebook shooting example, markers A to E",
			[]models.Disk{disk("1", 0, 0, 2.5, 0), disk("2", 5.6, 0, 2.5, 0)},
			[]models.Token{
				tok("A", "flèche", -4, 3, 0.8), tok("B", "arrow", 2.8, 0, 0.8), tok("C", "arrow", 6, 1, 0.8),
				tok("D", "arrow", 5.5, -1.5, 0.8), tok("E", "arrow", 10, 4, 0.8),
			},
			map[string][]string{"A": {}, "B": {"1", "2"}, "C": {"2"}, "D": {"2"}, "E": {}},
		},
		{
			// "si un Disk en bloque un autre et que le projectile touche
			// les deux, seul celui qui se trouve au-dessus subit des
			// dommages".
			"a projectile touching a disk and the disk it pins hits only the upper one",
			[]models.Disk{disk("low", 0, 0, 2.5, 0), disk("high", 4, 0, 2.5, 1)},
			[]models.Token{tok("t", "bolt", 1.9, 0, 0.6)},
			map[string][]string{"t": {"high"}},
		},
		{
			"several layers: only the top one is hit",
			[]models.Disk{disk("l0", 0, 0, 3, 0), disk("l1", 1, 0, 3, 1), disk("l2", 2, 0, 3, 2)},
			[]models.Token{tok("t", "fireball", 0.5, 0, 0.5)},
			map[string][]string{"t": {"l2"}},
		},
		{
			"a projectile on the lower disk only, away from the upper one, hits the lower",
			[]models.Disk{disk("low", 0, 0, 2.5, 0), disk("high", 4, 0, 2.5, 1)},
			[]models.Token{tok("t", "boulder", -1.5, 0, 0.7)},
			map[string][]string{"t": {"low"}},
		},
		{
			// "Un projectile qui tombe sur un autre projectile cause
			// normalement des dommages à la cible qui se trouve dessous."
			"a projectile lying on another projectile damages the disk below it",
			[]models.Disk{disk("target", 0, 0, 2.5, 0)},
			[]models.Token{tok("first", "arrow", 2.2, 0, 0.8), tok("second", "arrow", 3.6, 0, 0.8)},
			map[string][]string{"first": {"target"}, "second": {"target"}},
		},
		{
			"token levels decide which token lies on which",
			[]models.Disk{disk("d", 0, 0, 2.5, 0)},
			[]models.Token{
				func() models.Token { t := tok("under", "arrow", 3.6, 0, 0.8); t.Z = intp(0); return t }(),
				func() models.Token { t := tok("over", "arrow", 2.2, 0, 0.8); t.Z = intp(1); return t }(),
			},
			map[string][]string{"under": {}, "over": {"d"}},
		},
		{
			"a projectile touching a disk at the very edge hits it",
			[]models.Disk{disk("d", 0, 0, 2, 0)},
			[]models.Token{tok("t", "arrow", 3, 0, 1)},
			map[string][]string{"t": {"d"}},
		},
		{
			"an elongated token given as a polygon",
			[]models.Disk{disk("d", 0, 0, 2, 0), disk("far", 10, 0, 2, 0)},
			[]models.Token{{ID: "t", Kind: "arrow", X: 3.5, Y: 0, R: 1.6,
				Poly: []models.TablePoint{{X: 1.9, Y: -0.2}, {X: 5.1, Y: -0.2}, {X: 5.1, Y: 0.2}, {X: 1.9, Y: 0.2}}}},
			map[string][]string{"t": {"d"}},
		},
		{
			"a polygon whose enclosing circle touches but whose shape does not",
			[]models.Disk{disk("d", 0, 0, 2, 0)},
			[]models.Token{{ID: "t", Kind: "arrow", X: 3.3, Y: 0, R: 1.5,
				Poly: []models.TablePoint{{X: 2.2, Y: -0.2}, {X: 4.4, Y: -0.2}, {X: 4.4, Y: 0.2}, {X: 2.2, Y: 0.2}}}},
			map[string][]string{"t": {}},
		},
		{
			// B covers the whole lens of A and C, so A is not on top of C;
			// a token across A and C (missing B) hits both.
			"outer disks of a sandwich are not in contact, so a token on both hits both",
			[]models.Disk{disk("A", 0, 0, 3, 2), disk("B", 2.5, 0, 1.8, 1), disk("C", 5, 0, 3, 0)},
			[]models.Token{tok("t", "arrow", 2.5, 3, 1)},
			map[string][]string{"t": {"A", "C"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := layoutOf(tc.disks...)
			l.Tokens = tc.tokens
			got := hitMap(NewTable(l))
			for id, want := range tc.want {
				if g := got[id]; !slices.Equal(g, want) && !(len(g) == 0 && len(want) == 0) {
					t.Errorf("token %s hits %v, want %v", id, g, want)
				}
			}
		})
	}
}

func TestNonProjectilesTouchButDoNotHit(t *testing.T) {
	l := layoutOf(disk("d", 0, 0, 2, 0))
	l.Tokens = []models.Token{tok("w", "wound", 0, 0, 0.6)}
	tb := NewTable(l)
	if got := tb.IDs(tb.Touches(0)); !slices.Equal(got, []string{"d"}) {
		t.Errorf("touches = %v, want [d]", got)
	}
	if tb.Hits(0) != nil {
		t.Errorf("a wound marker hits %v, want nothing", tb.Hits(0))
	}
}

func TestVisionTouchesAreTrusted(t *testing.T) {
	l := layoutOf(disk("a", 0, 0, 2, 0), disk("b", 10, 0, 2, 0))
	tk := tok("t", "arrow", 50, 50, 0.8)
	tk.Touches = []string{"b", "ghost"}
	l.Tokens = []models.Token{tk}
	tb := NewTable(l)
	if got := tb.IDs(tb.Hits(0)); !slices.Equal(got, []string{"b"}) {
		t.Errorf("hits = %v, want [b] as vision said", got)
	}
	if len(tb.Warnings()) != 1 {
		t.Errorf("warnings = %q, want one about the unknown disk", tb.Warnings())
	}
}

func TestOnlyProjectilesPassTheirTouchesOn(t *testing.T) {
	// A gold counter on the table just touches P's edge; an arrow lying on
	// the counter touches no disk: it misses (the rulebook's rule is about
	// a projectile falling on another projectile).
	l := layoutOf(disk("P", 0, 0, 2, 0))
	l.Tokens = []models.Token{tok("gold", "gold", 2.6, 0, 0.65), tok("arrow", "arrow", 3.6, 0, 0.5)}
	tb := NewTable(l)
	if got := tb.IDs(tb.Hits(1)); len(got) != 0 {
		t.Errorf("an arrow on a gold counter hits %v, want nothing", got)
	}
}
