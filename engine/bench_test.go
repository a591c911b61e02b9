package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"tableref/models"
)

// benchTable is a crowded 180 x 90 cm table of 200 disks in Diskwars sizes,
// in clusters where disks lie up to three high, and 60 dropped arrows.
func benchTable() models.Layout {
	rng := rand.New(rand.NewPCG(42, 200))
	radii := []float64{2.225, 2.54, 3.175, 4.445}
	l := models.Layout{Version: 1}
	for c := range 50 {
		cx, cy := 10+rng.Float64()*160, 10+rng.Float64()*70
		for k := range 4 {
			// Each cluster: a disk, one on it, one on both, and a fourth
			// nearby on the table.
			x := cx + float64(k)*1.8*rng.Float64() + float64(k/3)*6
			y := cy + float64(k)*0.9*rng.Float64()
			z := k % 3
			l.Disks = append(l.Disks, models.Disk{ID: fmt.Sprintf("c%dk%d", c, k),
				X: models.Centimetres(x), Y: models.Centimetres(y), R: models.Centimetres(radii[rng.IntN(len(radii))]), Z: z*1000 + c*4 + k})
		}
	}
	for i := range 60 {
		l.Tokens = append(l.Tokens, models.Token{ID: fmt.Sprintf("t%d", i), Kind: "arrow",
			X: models.Centimetres(rng.Float64() * 180), Y: models.Centimetres(rng.Float64() * 90), R: 0.8})
	}
	return l
}

// BenchmarkContactGraph measures the whole geometry of a 200-disk table
// with stacks three high: overlaps, contacts with the sandwich rule,
// chains, tokens' touches and hits.
func BenchmarkContactGraph(b *testing.B) {
	l := benchTable()
	tb := NewTable(l)
	b.ReportMetric(float64(len(tb.Contacts())), "contacts")
	b.ResetTimer()
	for b.Loop() {
		NewTable(l)
	}
}

// BenchmarkReport measures the geometry plus the report's fields, with
// all 19,900 distances.
func BenchmarkReport(b *testing.B) {
	l := benchTable()
	for b.Loop() {
		Geometry(NewTable(l))
	}
}

func TestBenchTableHasStacksThreeHigh(t *testing.T) {
	tb := NewTable(benchTable())
	three := 0
	for i := range tb.Len() {
		for _, j := range tb.Pins(i) {
			if len(tb.Pins(j)) > 0 {
				three++
				break
			}
		}
	}
	if tb.Len() != 200 || three < 20 {
		t.Errorf("bench table has %d disks and %d disks on top of a stack of three; want 200 and at least 20", tb.Len(), three)
	}
}
