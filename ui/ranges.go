package ui

import (
	"fmt"
	"math"
	"slices"

	"tableref/engine"
	"tableref/engine/rulesets"
	"tableref/models"
)

// DefaultUncertainty is the measurement uncertainty used when none is
// configured: a distance this close to a band edge is too close to call.
const DefaultUncertainty models.Centimetres = 0.2

// BandedRuleset is what a ruleset may implement to give its range bands;
// the UI asks for it with a type assertion.
type BandedRuleset interface {
	RangeBands() []models.Centimetres
}

// diskwarsBands are the range bands of Diskwars (1999): 15 cm and 30 cm.
var diskwarsBands = []models.Centimetres{15, 30}

// BandsFor returns the range bands of the rules of the given name: those
// the ruleset declares (BandedRuleset), else 15 and 30 cm, the bands of
// Diskwars, which also serve the geometry view.
func BandsFor(rules string) []models.Centimetres {
	rs, err := rulesets.Lookup(rules)
	if err == nil && rs != nil {
		if b, ok := rs.(BandedRuleset); ok && len(b.RangeBands()) > 0 {
			return slices.Clone(b.RangeBands())
		}
	}
	return slices.Clone(diskwarsBands)
}

// RangeRow is the edge-to-edge distance from the selected disk to another.
type RangeRow struct {
	ID, Name string
	// Edge is the edge-to-edge distance in cm, negative when overlapping.
	Edge models.Centimetres
	// Band is the index of the first band Edge lies within (Edge <= band),
	// len(bands) when beyond every band.
	Band int
	// TooClose is set when Edge lies within the uncertainty of a band
	// edge: the measurement cannot tell in from out. Near is that edge.
	TooClose bool
	Near     models.Centimetres
}

// Ranges returns the distance from disk sel to every other disk, nearest
// first, classified by bands (ascending, in cm) with the measurement
// uncertainty unc.
func Ranges(t *engine.Table, sel int, bands []models.Centimetres, unc models.Centimetres) []RangeRow {
	var rows []RangeRow
	for j := range t.Len() {
		if j == sel {
			continue
		}
		d := t.Disk(j)
		row := RangeRow{ID: d.ID, Name: d.Name, Edge: t.Edge(sel, j)}
		row.Band, row.TooClose, row.Near = classify(row.Edge, bands, unc)
		rows = append(rows, row)
	}
	slices.SortStableFunc(rows, func(a, b RangeRow) int {
		return cmpCm(a.Edge, b.Edge)
	})
	return rows
}

// classify places a distance among the bands.
func classify(e models.Centimetres, bands []models.Centimetres, unc models.Centimetres) (band int, tooClose bool, near models.Centimetres) {
	band = len(bands)
	for i, b := range bands {
		if e <= b {
			band = i
			break
		}
	}
	for _, b := range bands {
		if math.Abs(float64(e-b)) <= float64(unc) {
			return band, true, b
		}
	}
	return band, false, 0
}

// Describe says in words where the row lies: "overlapping", "within 15 cm",
// "15–30 cm", "beyond 30 cm", or "too close to call (15 cm ± 0.2)".
func (r RangeRow) Describe(bands []models.Centimetres, unc models.Centimetres) string {
	switch {
	case r.TooClose:
		return fmt.Sprintf("too close to call (%g cm ± %g)", float64(r.Near), float64(unc))
	case float64(r.Edge) < -engine.Epsilon: // as engine.Overlap: touching is not overlapping
		return "overlapping"
	case len(bands) == 0:
		return ""
	case r.Band == 0:
		return fmt.Sprintf("within %g cm", float64(bands[0]))
	case r.Band == len(bands):
		return fmt.Sprintf("beyond %g cm", float64(bands[len(bands)-1]))
	}
	return fmt.Sprintf("%g–%g cm", float64(bands[r.Band-1]), float64(bands[r.Band]))
}

func cmpCm(a, b models.Centimetres) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
