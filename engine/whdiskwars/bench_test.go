package whdiskwars

import (
	"math/rand/v2"
	"testing"

	"tableref/engine"
)

// BenchmarkRunFigure6 analyses the Figure 6 scrum: split, order, melee.
func BenchmarkRunFigure6(b *testing.B) {
	l := loadTable(b, "figure6.json")
	for b.Loop() {
		if _, err := Run(l); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunRandomTables analyses crowded random tables (up to 24
// disks, many casualties, so many recomputed contacts).
func BenchmarkRunRandomTables(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 7))
	tables := make([]*engine.Table, 64)
	for i := range tables {
		tables[i] = randomTable(rng)
	}
	i := 0
	for b.Loop() {
		if _, err := Run(tables[i%len(tables)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
