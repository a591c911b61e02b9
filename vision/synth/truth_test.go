package synth

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"tableref/models"
)

// The truth describes what the renderer draws: just inside each disk's
// outline at its top face's height the ray meets that face (or a higher
// piece), just outside it does not; each token's touches are the disks
// whose outlines the drawn token's outline meets, seen from above, as the
// contract defines touching.
func TestTruthMatchesTheDrawing(t *testing.T) {
	for _, tier := range Tiers {
		for seed := range uint64(20) {
			t.Run(fmt.Sprintf("%s seed %d", tier, seed), func(t *testing.T) {
				s, err := Generate(seed, tier, small)
				if err != nil {
					t.Fatal(err)
				}
				st := s.stage(false)
				for i, d := range s.Truth.Disks {
					checkDiskOutline(t, s, st, i, d)
				}
				for k, tk := range s.Truth.Tokens {
					if got, want := tk.Touches, drawnTouches(st, len(s.disks)+k, s.Truth.Disks); !slices.Equal(got, want) {
						t.Errorf("%s touches %v, the drawing %v", tk.ID, got, want)
					}
				}
			})
		}
	}
}

func checkDiskOutline(t *testing.T, s *Scene, st *stage, i int, d models.Disk) {
	t.Helper()
	top := Thickness * float64(d.Z+1)
	for k := range 32 {
		a := 2 * math.Pi * float64(k) / 32
		for _, f := range []float64{0.97, 1.03} {
			x, y := float64(d.X)+f*float64(d.R)*math.Cos(a), float64(d.Y)+f*float64(d.R)*math.Sin(a)
			p, _ := s.Project(models.TablePoint{X: cm(x), Y: cm(y)}, top)
			h := st.trace(s.ray(p.U, p.V), allSolids(st))
			onFace := h.solid == i && !h.side
			if f < 1 && !onFace && (h.solid < 0 || st.solids[h.solid].ht <= top) {
				t.Errorf("%s: inside its outline the ray meets %+v, want its top face", d.ID, h)
			}
			if f > 1 && onFace {
				t.Errorf("%s: outside its outline the ray meets its top face", d.ID)
			}
		}
	}
}

// drawnTouches lists the disks whose footprint the footprint of solid k
// meets, sampled on a 0.01 cm grid.
func drawnTouches(st *stage, k int, disks []models.Disk) []string {
	o := &st.solids[k]
	ext := math.Hypot(o.a, o.b)
	out := []string{}
	for i, d := range disks {
		if math.Hypot(o.x-float64(d.X), o.y-float64(d.Y)) > ext+float64(d.R) {
			continue
		}
		for x := o.x - ext; x <= o.x+ext && !slices.Contains(out, d.ID); x += 0.01 {
			for y := o.y - ext; y <= o.y+ext; y += 0.01 {
				if o.edge(x, y) >= 0 && st.solids[i].edge(x, y) >= 0 {
					out = append(out, d.ID)
					break
				}
			}
		}
	}
	return out
}
