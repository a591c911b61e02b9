package ui

import (
	"image"
	"math"
	"slices"
	"strings"

	"github.com/nfnt/resize"

	"tableref/engine"
	"tableref/models"
)

// ResolutionOrder returns the engagements in the order they are resolved:
// every pair [X, Y] of before puts X ahead of Y; otherwise the report's
// order is kept. Pairs that form a cycle are ignored from the first one
// that closes it.
func ResolutionOrder(engs []engine.Engagement, before [][2]string) []engine.Engagement {
	idx := map[string]int{}
	for i, e := range engs {
		idx[e.ID] = i
	}
	preds := make([][]int, len(engs))
	for _, p := range before {
		a, ok1 := idx[p[0]]
		b, ok2 := idx[p[1]]
		if ok1 && ok2 && a != b {
			preds[b] = append(preds[b], a)
		}
	}
	out := make([]engine.Engagement, 0, len(engs))
	state := make([]int, len(engs)) // 0 new, 1 visiting, 2 done
	var visit func(i int)
	visit = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, p := range preds[i] {
			visit(p)
		}
		state[i] = 2
		out = append(out, engs[i])
	}
	for i := range engs {
		visit(i)
	}
	return out
}

// names joins the names of disks by id ("Orc Warband, Cave Troll").
func names(l models.Layout, ids []string) string {
	var out []string
	for _, id := range ids {
		out = append(out, nameOf(l, id))
	}
	return strings.Join(out, ", ")
}

func nameOf(l models.Layout, id string) string {
	if d, ok := l.Disk(id); ok && d.Name != "" {
		return d.Name
	}
	return id
}

// Pick returns the id of what lies under an image point: a token first
// (tokens lie on top), else the uppermost disk, creatures above terrain.
// isToken tells which it is; ok is false when nothing is there.
func Pick(l models.Layout, b image.Rectangle, at Pixel) (id string, isToken, ok bool) {
	g := newGeom(l, b)
	for _, t := range slices.Backward(l.Tokens) {
		c := g.token(t)
		if math.Hypot(at.U-c.PX, at.V-c.PY) <= math.Max(c.PR, 6) {
			return t.ID, true, true
		}
	}
	order := stackOrder(l.Disks)
	for _, i := range slices.Backward(order) {
		d := l.Disks[i]
		c := g.disks[d.ID]
		if math.Hypot(at.U-c.PX, at.V-c.PY) <= c.PR {
			return d.ID, false, true
		}
	}
	return "", false, false
}

// ToTable maps an image point of a frame to the table frame.
func ToTable(l models.Layout, b image.Rectangle, at Pixel) (models.TablePoint, bool) {
	return newGeom(l, b).m.Invert(at)
}

// FitForDisplay scales a frame down so that it fits in w by h pixels,
// scaling its pixel circles with it; a frame that fits is returned as it
// is.
func FitForDisplay(f Frame, w, h int) Frame {
	b := f.Image.Bounds()
	if b.Dx() <= w && b.Dy() <= h {
		return f
	}
	s := math.Min(float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy()))
	nw, nh := uint(math.Round(float64(b.Dx())*s)), uint(math.Round(float64(b.Dy())*s))
	out := f
	out.Image = resize.Resize(nw, nh, f.Image, resize.Bilinear)
	out.Layout = f.Layout.Clone()
	scale := func(c *models.ImageCircle) {
		if c != nil {
			c.PX, c.PY, c.PR = (c.PX-float64(b.Min.X))*s, (c.PY-float64(b.Min.Y))*s, c.PR*s
		}
	}
	for i := range out.Layout.Disks {
		scale(out.Layout.Disks[i].Pixel)
	}
	for i := range out.Layout.Tokens {
		scale(out.Layout.Tokens[i].Pixel)
	}
	return out
}
