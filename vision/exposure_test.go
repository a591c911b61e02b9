package vision

import (
	"image"
	"image/color"
	"math"
	"slices"
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

// TestDimOrColouredLightIsCorrectedByTheBoardsWhite: a camera exposed
// at half of what the renderer's automatic exposure gives, for the board
// view as for the game (a lamp turned down), and a warm lamp (red 1.1,
// green 0.95, blue 0.75 of the renderer's light). At half the exposure
// the token colours fell out of the catalogue's rays: the detector found
// 3 of the 48 chits of medium seeds 1-8 (disks 88 of 90); under the warm
// lamp 24 (and 5 phantoms). Calibrated from the board view, whose white
// squares read half their usual grey or the lamp's colour, the frames are
// brightened and balanced back: 48 and 46 chits, 90 disks each. This test
// runs seeds 1-2 (14 chits).
func TestDimOrColouredLightIsCorrectedByTheBoardsWhite(t *testing.T) {
	for _, tc := range []struct {
		name string
		rgb  [3]float64 // the light's gain on red, green, blue
	}{
		{"half the exposure", [3]float64{0.5, 0.5, 0.5}},
		{"a warm lamp", [3]float64{1.1, 0.95, 0.75}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var with, without, truth, disksWith int
			for seed := uint64(1); seed <= 2; seed++ {
				s, img, _ := renderScene(t, seed, synth.Medium, synth.Options{})
				board := s.RenderBoard()
				for i := range board.Pix {
					if c := i % 4; c != 3 {
						board.Pix[i] = byte(min(255, math.Round(float64(board.Pix[i])*tc.rgb[c])))
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
				measured := *cal
				measured.Quality.BoardWhite = calibration.BoardWhite(g, s.Board, corners)
				measured.Quality.BoardWhiteRGB = calibration.BoardWhiteRGB(calibration.ChannelsFromImage(board), s.Board, corners)
				frame, err := gocv.ImageToMatRGB(img)
				if err != nil {
					t.Fatal(err)
				}
				b, err := frame.DataPtrUint8()
				if err != nil {
					t.Fatal(err)
				}
				for i := range b {
					b[i] = byte(min(255, math.Round(float64(b[i])*tc.rgb[2-i%3]))) // BGR
				}
				for _, c := range []*calibration.Calibration{cal, &measured} {
					d := NewDetector(Options{Calibration: c})
					res, err := d.Detect(frame)
					d.Close()
					if err != nil {
						t.Fatal(err)
					}
					if c == cal {
						without += len(res.Layout.Tokens)
						continue
					}
					with += len(res.Layout.Tokens)
					disksWith += len(res.Layout.Disks)
					if len(res.Warnings) == 0 {
						t.Errorf("seed %d: no warning that the frames were corrected", seed)
					}
				}
				frame.Close()
				truth += len(s.Truth.Tokens)
			}
			t.Logf("chits found: %d of %d with the board's white, %d without; disks %d", with, truth, without, disksWith)
			if with < truth-1 || with > truth+1 || without >= with-2 {
				t.Errorf("chits found %d of %d with the board's white (%d without); want all but one at most, and clearly more than without", with, truth, without)
			}
		})
	}
}

// TestWhiteBalance: a white within whiteCast of grey, or not measured,
// is left; a coloured one is scaled to its mean, within whiteMostGain.
func TestWhiteBalance(t *testing.T) {
	for _, tc := range []struct {
		rgb, want [3]float64
	}{
		{[3]float64{0, 0, 0}, [3]float64{1, 1, 1}},
		{[3]float64{230, 225, 220}, [3]float64{1, 1, 1}},
		{[3]float64{240, 200, 160}, [3]float64{200.0 / 240, 1, 200.0 / 160}},
		{[3]float64{240, 240, 40}, [3]float64{520.0 / 3 / 240, 520.0 / 3 / 240, whiteMostGain}},
	} {
		got := whiteBalance(tc.rgb)
		for c := range got {
			if math.Abs(got[c]-tc.want[c]) > 1e-9 {
				t.Errorf("white %v: gains %v, want %v", tc.rgb, got, tc.want)
				break
			}
		}
	}
}

// TestExposureOfABalancedWhite: with the white balanced, the frames are
// brightened from the mean of its red, green and blue (what the white
// becomes), not from its grey: a dim warm white ends at exposureWhite.
func TestExposureOfABalancedWhite(t *testing.T) {
	rgb := [3]float64{150, 110, 60}
	cal := &calibration.Calibration{Quality: calibration.Quality{BoardWhite: 0.299*rgb[0] + 0.587*rgb[1] + 0.114*rgb[2], BoardWhiteRGB: rgb}}
	g, ok := frameGains(cal)
	if !ok {
		t.Fatal("no gains for a dim warm white")
	}
	for c := range 3 {
		if got := rgb[2-c] * g[c]; math.Abs(got-exposureWhite) > 0.5 { // g is blue, green, red
			t.Errorf("channel %d of the white ends at %.1f, want %.0f", c, got, exposureWhite)
		}
	}
}

// TestGreyFramesAreSaidToBeGrey: a grey image (one channel, or three
// equal ones) is detected with a warning that rims and chits need colour;
// a colour frame is not.
func TestGreyFramesAreSaidToBeGrey(t *testing.T) {
	grey := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 120, 120, 0), 240, 320, gocv.MatTypeCV8UC3)
	defer grey.Close()
	gocv.Circle(&grey, image.Pt(160, 120), 50, color.RGBA{40, 40, 40, 255}, -1)
	one := gocv.NewMat()
	defer one.Close()
	gocv.CvtColor(grey, &one, gocv.ColorBGRToGray)
	coloured := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 110, 50, 0), 240, 320, gocv.MatTypeCV8UC3)
	defer coloured.Close()
	gocv.Circle(&coloured, image.Pt(160, 120), 50, color.RGBA{200, 40, 40, 255}, -1)
	for _, tc := range []struct {
		name  string
		frame gocv.Mat
		want  bool
	}{{"three equal channels", grey, true}, {"one channel", one, true}, {"colour", coloured, false}} {
		d := NewDetector(Options{})
		res, err := d.Detect(tc.frame)
		d.Close()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := slices.Contains(res.Warnings, greyFrameWarning); got != tc.want {
			t.Errorf("%s: grey warning %v, want %v (warnings %q)", tc.name, got, tc.want, res.Warnings)
		}
	}
}
