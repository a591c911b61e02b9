package vision

import (
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/vision/synth"
)

// TestExposureGain: frames are brightened only when the board's white
// was measured dim, by as much as brings it to exposureWhite, at most
// exposureMostGain.
func TestExposureGain(t *testing.T) {
	for _, tc := range []struct {
		white, want float64
	}{
		{0, 1},                 // not measured
		{225, 1},               // exposed for the table
		{190, 1},               // within the lamps' spread
		{150, 1.5},             // dim
		{112.5, 2},             // half
		{30, exposureMostGain}, // too dark to trust more
		{math.NaN(), 1},        // nonsense
	} {
		cal := &calibration.Calibration{Quality: calibration.Quality{BoardWhite: tc.white}}
		if got := exposureGain(cal); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("white %v: gain %v, want %v", tc.white, got, tc.want)
		}
	}
	if got := exposureGain(nil); got != 1 {
		t.Errorf("no calibration: gain %v, want 1", got)
	}
}

// TestDimCameraIsBrightenedByTheBoardsWhite: a camera exposed at half
// of what the renderer's automatic exposure gives, for the board view as
// for the game (a lamp turned down): the token colours fell out of the
// catalogue's rays and the detector found 3 of the 48 chits of medium
// seeds 1-8 (disks 88 of 90). Calibrated from the dim board view, whose
// white squares read half their usual grey, the frames are brightened
// back: 48 chits and 90 disks, as at the renderer's exposure. This test
// runs seeds 1-2.
func TestDimCameraIsBrightenedByTheBoardsWhite(t *testing.T) {
	const gain = 0.5
	var with, without, truth, disksWith int
	for seed := uint64(1); seed <= 2; seed++ {
		s, err := synth.Generate(seed, synth.Medium, synth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		img, err := s.Render()
		if err != nil {
			t.Fatal(err)
		}
		board := s.RenderBoard()
		for i := range board.Pix {
			if i%4 != 3 {
				board.Pix[i] = byte(math.Round(float64(board.Pix[i]) * gain))
			}
		}
		g := calibration.GrayFromImage(board)
		corners, err := calibration.FindCorners(g, s.Board)
		if err != nil {
			t.Fatal(err)
		}
		cal, err := calibration.FromBoard(calibration.Lens{Camera: s.Camera, Source: calibration.SourceSynthetic}, s.Board, corners)
		if err != nil {
			t.Fatal(err)
		}
		white := calibration.BoardWhite(g, s.Board, corners)
		if white < 90 || white > 130 {
			t.Errorf("seed %d: board white %.0f in the half-exposed view, want about 110", seed, white)
		}
		frame, err := gocv.ImageToMatRGB(img)
		if err != nil {
			t.Fatal(err)
		}
		frame.ConvertToWithParams(&frame, frame.Type(), gain, 0)
		for _, measured := range []bool{false, true} {
			c := *cal
			if measured {
				c.Quality.BoardWhite = white
			}
			d := NewDetector(Options{Calibration: &c})
			res, err := d.Detect(frame)
			d.Close()
			if err != nil {
				t.Fatal(err)
			}
			if measured {
				with += len(res.Layout.Tokens)
				disksWith += len(res.Layout.Disks)
				if len(res.Warnings) == 0 {
					t.Errorf("seed %d: no warning that the frames were brightened", seed)
				}
			} else {
				without += len(res.Layout.Tokens)
			}
		}
		frame.Close()
		truth += len(s.Truth.Tokens)
	}
	t.Logf("chits found: %d of %d with the board's white, %d without; disks %d", with, truth, without, disksWith)
	if with < truth-1 || with > truth+1 || without >= with {
		t.Errorf("chits found %d of %d with the board's white (%d without); want all but one at most, and more than without", with, truth, without)
	}
}
