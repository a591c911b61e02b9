package engine

import (
	"slices"

	"tableref/models"
)

// Tokens and the projectile hit rule
//
// A token touches a disk when their shapes intersect, even partially: the
// token's circle (or its outline polygon when it has one) against the
// disk's circle, edges touching included. When vision wrote the token's
// "touches" list, that list is taken as it is.
//
// A projectile that touches several disks hits all of them, except that
// where a touched disk is on top of another touched disk (the contact
// relation) only the upper one is hit; with several layers, only the top
// one (Diskwars rulebook, "Tirer").
//
// A projectile lying on another projectile damages the disks under the one
// below ("Un projectile qui tombe sur un autre projectile cause normalement
// des dommages à la cible qui se trouve dessous"). Token T lies on token U
// when they overlap and either both have a stacking level z and T's is
// higher, or the levels are unknown and T touches no disk itself (it
// cannot lie on the bare table, since a token on the table is removed at
// once). T then touches what it touches itself and what U touches.
// A projectile that touches no disk, directly or through the projectiles
// under it, misses.

// Touches returns the disks token k touches (through the tokens it lies
// on, too), ascending.
func (t *Table) Touches(k int) []int { return t.touches[k] }

// Hits returns the disks projectile token k hits, ascending; nil for a
// token that is not a projectile or misses.
func (t *Table) Hits(k int) []int { return t.hits[k] }

// TokenLen returns the number of tokens.
func (t *Table) TokenLen() int { return len(t.layout.Tokens) }

// Token returns token k.
func (t *Table) Token(k int) models.Token { return t.layout.Tokens[k] }

func (t *Table) computeTokens() {
	toks := t.layout.Tokens
	direct := make([][]int, len(toks))
	for k, tok := range toks {
		direct[k] = t.directTouches(k, tok)
	}
	t.touches = make([][]int, len(toks))
	t.hits = make([][]int, len(toks))
	for k := range toks {
		seen := map[int]bool{k: true}
		t.touches[k] = t.touchesThrough(k, direct, seen)
	}
	for k, tok := range toks {
		if tok.IsProjectile() {
			t.hits[k] = t.topmost(t.touches[k])
		}
	}
}

// directTouches returns the disks token k touches by its own shape.
func (t *Table) directTouches(k int, tok models.Token) []int {
	if tok.Touches != nil {
		var out []int
		for _, id := range tok.Touches {
			if i, ok := t.index[id]; ok {
				out = append(out, i)
			} else {
				t.warnf("token %q touches unknown disk %q: ignored", tok.ID, id)
			}
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	var out []int
	for i, c := range t.circles {
		if tokenTouchesCircle(tok, c) {
			out = append(out, i)
		}
	}
	return out
}

// touchesThrough adds to projectile k's own touches those of the
// projectiles it lies on, recursively (the rulebook speaks of a projectile
// falling on another; a counter or marker passes nothing on).
func (t *Table) touchesThrough(k int, direct [][]int, seen map[int]bool) []int {
	out := slices.Clone(direct[k])
	toks := t.layout.Tokens
	for u := range toks {
		if seen[u] || !toks[k].IsProjectile() || !toks[u].IsProjectile() || !liesOn(toks[k], toks[u], len(direct[k]) == 0) {
			continue
		}
		seen[u] = true
		out = append(out, t.touchesThrough(u, direct, seen)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// liesOn reports whether token a lies on token b; aTouchesNothing says
// whether a touches no disk by itself.
func liesOn(a, b models.Token, aTouchesNothing bool) bool {
	if !tokensOverlap(a, b) {
		return false
	}
	if a.Z != nil && b.Z != nil {
		return *a.Z > *b.Z
	}
	return aTouchesNothing
}

// topmost removes from touched every disk that another touched disk is on
// top of.
func (t *Table) topmost(touched []int) []int {
	var out []int
	for _, i := range touched {
		covered := false
		for _, j := range touched {
			if t.OnTop(j, i) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, i)
		}
	}
	return out
}

func tokenCircle(tok models.Token) Circle {
	return Circle{Vec{float64(tok.X), float64(tok.Y)}, float64(tok.R)}
}

func tokenPoly(tok models.Token) []Vec {
	out := make([]Vec, len(tok.Poly))
	for i, p := range tok.Poly {
		out[i] = Vec{float64(p.X), float64(p.Y)}
	}
	return out
}

// tokenTouchesCircle reports whether the token's shape intersects circle c.
func tokenTouchesCircle(tok models.Token, c Circle) bool {
	if len(tok.Poly) >= 3 {
		return polyTouchesCircle(tokenPoly(tok), c)
	}
	return Edge(tokenCircle(tok), c) <= Epsilon
}

func tokensOverlap(a, b models.Token) bool {
	switch {
	case len(a.Poly) >= 3 && len(b.Poly) >= 3:
		return polysIntersect(tokenPoly(a), tokenPoly(b))
	case len(a.Poly) >= 3:
		return polyTouchesCircle(tokenPoly(a), tokenCircle(b))
	case len(b.Poly) >= 3:
		return polyTouchesCircle(tokenPoly(b), tokenCircle(a))
	}
	return Edge(tokenCircle(a), tokenCircle(b)) <= Epsilon
}

// polyTouchesCircle reports whether a simple polygon and a closed disk
// intersect: the centre lies inside the polygon, or some edge comes
// within the radius of the centre.
func polyTouchesCircle(poly []Vec, c Circle) bool {
	if pointInPoly(c.C, poly) {
		return true
	}
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		if segmentDistance(c.C, a, b) <= c.R+Epsilon {
			return true
		}
	}
	return false
}

func polysIntersect(p, q []Vec) bool {
	if pointInPoly(p[0], q) || pointInPoly(q[0], p) {
		return true
	}
	for i := range p {
		for j := range q {
			if segmentsCross(p[i], p[(i+1)%len(p)], q[j], q[(j+1)%len(q)]) {
				return true
			}
		}
	}
	return false
}

// pointInPoly is the even-odd rule.
func pointInPoly(p Vec, poly []Vec) bool {
	in := false
	for i, j := 0, len(poly)-1; i < len(poly); j, i = i, i+1 {
		a, b := poly[i], poly[j]
		if (a.Y > p.Y) != (b.Y > p.Y) && p.X < (b.X-a.X)*(p.Y-a.Y)/(b.Y-a.Y)+a.X {
			in = !in
		}
	}
	return in
}

// segmentDistance returns the distance from p to the segment ab.
func segmentDistance(p, a, b Vec) float64 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return p.Sub(a).Len()
	}
	s := min(max(p.Sub(a).Dot(ab)/l2, 0), 1)
	return p.Sub(a.Add(ab.Scale(s))).Len()
}

func segmentsCross(a, b, c, d Vec) bool {
	d1 := b.Sub(a).Cross(c.Sub(a))
	d2 := b.Sub(a).Cross(d.Sub(a))
	d3 := d.Sub(c).Cross(a.Sub(c))
	d4 := d.Sub(c).Cross(b.Sub(c))
	if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
		return true
	}
	return segmentDistance(c, a, b) <= Epsilon || segmentDistance(d, a, b) <= Epsilon ||
		segmentDistance(a, c, d) <= Epsilon || segmentDistance(b, c, d) <= Epsilon
}
