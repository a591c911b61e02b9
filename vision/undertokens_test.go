package vision

import (
	"fmt"
	"math"
	"testing"

	"tableref/vision/synth"
)

// A chit crosses a circle's outline when it reaches both inside and
// outside it: not when it lies wholly on one side, nor when the circle is
// its own outline drawn out around it.
func TestChitsAcross(t *testing.T) {
	c := circle{pt{0, 0}, 1.25}
	round := func(x, y, d float64) *tokenShape {
		return &tokenShape{centre: pt{x, y}, length: d, width: d, shape: "round"}
	}
	tests := []struct {
		name string
		tok  *tokenShape
		want bool
	}{
		{"a marker on the edge", round(1.2, 0, 1.6), true},
		{"a boulder half over the edge", round(0.5, 0, 2), true},
		{"a marker well inside", round(0.2, 0.1, 1.0), false},
		{"a chit off the disk", round(3, 0, 1.6), false},
		{"the circle around a chit, drawn out by blur", round(0, 0, 2.2), false},
		{"a long chit across the edge", &tokenShape{centre: pt{0, 1.3}, length: 3.2, width: 0.9, shape: "long"}, true},
	}
	for _, tc := range tests {
		got := len(chitsAcross(c, []*tokenShape{tc.tok}, nil)) == 1
		if got != tc.want {
			t.Errorf("%s: crosses %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Spells with a chit lying across their edge, whose outline verify saw
// broken where the chit hides it, are found once the chits are: judged
// with the chit hiding part of the outline and of the rim. Rendered
// medium-tier scenes, true calibration; both were missed before.
func TestDisksUnderChitsAreFound(t *testing.T) {
	cases := []struct {
		seed uint64
		id   string
	}{
		{117, "d13"}, // 1.25 cm on a 4.45 cm disk, a boulder over half of it
		{32, "d8"},   // 1.25 cm lying on a 5.2 cm disk, a chit across its edge
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("medium-%d-%s", tc.seed, tc.id), func(t *testing.T) {
			s, got := detectScene(t, tc.seed, synth.Medium)
			wantFoundAtSize(t, s, got, tc.id, 1.5)
		})
	}
}

// A spell found off its place (drawn by the chit lying across its edge)
// is not found a second time at its place once the chits are found: two
// disks of one size, their centres within a radius, cannot both be.
// Rendered easy-tier scene 202, true calibration.
func TestDisksUnderChitsAreNotDoubled(t *testing.T) {
	s, got := detectScene(t, 202, synth.Easy)
	i := trueDiskIndex(s, "d2")
	if i < 0 {
		t.Fatal("no disk d2 in the scene")
	}
	want := s.Truth.Disks[i]
	n := 0
	for _, dk := range got.Disks {
		if math.Hypot(float64(dk.X-want.X), float64(dk.Y-want.Y)) < float64(want.R) && dk.R == want.R {
			n++
		}
	}
	if n > 1 {
		t.Errorf("%d disks of %.2f cm within its radius of disk d2, want at most one", n, want.R)
	}
}

// A circle found under a chit is judged as lying wholly inside a disk as
// verify judges one: reaching past the disk by no more than withinPixels
// (a circle of art touching the disk's outline from inside, measured a
// hair large, reaches past it).
func TestPlaceAmongAsVerify(t *testing.T) {
	const px = 0.1 // cm a detection pixel
	fits := []diskFit{{c: circle{pt{0, 0}, 2.225}}}
	tests := []struct {
		name            string
		c               circle
		within, overlap bool
	}{
		{"well inside", circle{pt{0.3, 0}, 1.25}, true, true},
		{"touching the outline from inside", circle{pt{0.975, 0}, 1.25}, true, true},
		{"a hair past it", circle{pt{0.975 + 0.08, 0}, 1.25}, true, true},
		{"past it by more than withinPixels", circle{pt{0.975 + 0.3, 0}, 1.25}, false, true},
		{"half off it", circle{pt{2.2, 0}, 1.25}, false, true},
		{"off it", circle{pt{4, 0}, 1.25}, false, false},
		{"larger than it", circle{pt{0, 0}, 2.54}, false, true},
	}
	for _, tc := range tests {
		within, overlap := placeAmong(tc.c, fits, withinPixels*px)
		if within != tc.within || overlap != tc.overlap {
			t.Errorf("%s: within %v, overlaps %v; want %v, %v", tc.name, within, overlap, tc.within, tc.overlap)
		}
	}
}

// A circle of a disk's art touching its outline from inside, under a
// bolt lying across it, is no spell lying on the disk: found again once
// the chits are (disksUnderTokens), it is judged as lying within the
// disk, where it shows no rim. Rendered medium-tier scene 7 under a lamp
// 30 degrees up, calibrated from its chessboard: it stood as a 1.25 cm
// disk on d5.
func TestArtUnderAChitTouchingItsDisksOutline(t *testing.T) {
	s, got := detectSceneByBoard(t, 7, synth.Medium, synth.Options{Lamp: 30})
	host := trueDisk(t, s, "d5")
	wantFoundAtSize(t, s, got, "d5", 1.5)
	for _, dk := range got.Disks {
		if dk.R < host.R && math.Hypot(float64(dk.X-host.X), float64(dk.Y-host.Y))+float64(dk.R) < float64(host.R)+0.2 {
			t.Errorf("a %.3f cm disk at pixel %.0f, %.0f within disk %s: its art", dk.R, dk.Pixel.PX, dk.Pixel.PY, host.ID)
		}
	}
}
