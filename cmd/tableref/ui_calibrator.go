package main

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"tableref/calibration"
	"tableref/ui"
)

// detectorEdgeMM is the error of an edge-to-edge distance that the
// detector adds to the calibration's, in mm: the 95th-percentile target
// of the detection issue, which "tableref bench" measures.
const detectorEdgeMM = 1.0

// liveCalibrator is the calibration wizard's ui.Calibrator over the
// calibration package: it captures the board in the latest frame of the
// live source, solves the lens from the views (or keeps the lens of the
// calibration in use when there are fewer than calibration.MinViews) and
// the table plane from the last view, hands the result to the live
// source's detector and saves it. Safe for concurrent use.
type liveCalibrator struct {
	live  *liveState
	board calibration.Board
	// out is where Save writes.
	out string

	mu    sync.Mutex
	views [][]calibration.Pixel
	// whites are each view's board white, grey and red, green, blue
	// (the last view's goes with the table plane: see exposure).
	whites []boardWhite
	w, h   int
	solved *calibration.Calibration
}

func newLiveCalibrator(live *liveState, board calibration.Board, out string) *liveCalibrator {
	return &liveCalibrator{live: live, board: board, out: out}
}

// Capture finds the board in the latest frame and keeps the view.
func (c *liveCalibrator) Capture() (int, error) {
	img := c.live.frame()
	if img == nil {
		return 0, errors.New("no frame has come from the source yet")
	}
	g := calibration.GrayFromImage(img)
	corners, err := calibration.FindCorners(g, c.board)
	if err != nil {
		return c.count(), fmt.Errorf("the %s board in the current frame: %w", c.board, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.views) > 0 && (g.Width != c.w || g.Height != c.h) {
		return len(c.views), fmt.Errorf("this frame is %dx%d but the views held are %dx%d: the camera changed mode", g.Width, g.Height, c.w, c.h)
	}
	// A board that has not moved since an earlier capture adds weight,
	// not information, and makes the lens wrong while its RMS looks good.
	if j := calibration.DuplicateOf(c.views, corners); j >= 0 {
		return len(c.views), fmt.Errorf("the board is where it was in view %d: move or tilt it before capturing again", j+1)
	}
	c.views = append(c.views, corners)
	c.whites = append(c.whites, boardWhite{calibration.BoardWhite(g, c.board, corners),
		calibration.BoardWhiteRGB(calibration.ChannelsFromImage(img), c.board, corners)})
	c.w, c.h = g.Width, g.Height
	return len(c.views), nil
}

// boardWhite is a view's board white: grey and red, green, blue.
type boardWhite struct {
	grey float64
	rgb  [3]float64
}

func (c *liveCalibrator) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.views)
}

// Solve calibrates from the views held. With MinViews views or more the
// lens is calibrated from them all; with fewer, the lens of the
// calibration in use is kept. The table plane comes from the last view,
// which should show the board lying flat on the table. The live source's
// detector uses the result from its next frame.
func (c *liveCalibrator) Solve() (ui.CalibrationResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(c.views)
	if n == 0 {
		return ui.CalibrationResult{}, errors.New("no view captured yet: show the board to the camera and press Capture")
	}
	lens, note, err := c.lens()
	if err != nil {
		return ui.CalibrationResult{}, err
	}
	cal, err := calibration.FromBoard(lens, c.board, c.views[n-1])
	if err != nil {
		return ui.CalibrationResult{}, fmt.Errorf("the table plane from the last view: %w", err)
	}
	cal.Quality.BoardWhite, cal.Quality.BoardWhiteRGB = c.whites[n-1].grey, c.whites[n-1].rgb
	c.solved = cal
	c.live.setCalibration(cal)
	q := cal.Quality
	rms := q.RMSPx
	if lens.Views == 0 || note != "" {
		rms = q.PlaneRMSPx
	}
	note += fmt.Sprintf("The table plane is the last view (%.0f cm below the camera); one point is known to ±%.2f mm at the centre, ±%.2f mm at the edges (1 sigma); the uncertainty shown is for a distance, the detector's %.0f mm included.",
		float64(cal.Plane.EyeHeight), q.Uncertainty.CentreMM, q.Uncertainty.EdgeMM, detectorEdgeMM)
	return ui.CalibrationResult{Views: n, RMSPixels: rms, UncertaintyMM: distanceUncertaintyMM(q.Uncertainty), Note: note}, nil
}

// lens returns the lens to use and a note when it was not calibrated
// from the views held. The caller holds mu.
func (c *liveCalibrator) lens() (calibration.Lens, string, error) {
	n := len(c.views)
	if n >= calibration.MinViews {
		l, err := calibration.CalibrateLens(c.views, c.board, c.w, c.h)
		if err != nil {
			return calibration.Lens{}, "", fmt.Errorf("the lens from %d views: %w; capture more views, the board tilted a different way in each", n, err)
		}
		return l, "", nil
	}
	cur, _ := c.live.calibration()
	if cur == nil {
		return calibration.Lens{}, "", fmt.Errorf("%d view(s) held: the lens needs at least %d (or start with --calibration FILE to keep its lens and measure only the table plane)", n, calibration.MinViews)
	}
	if cur.Lens.Width != c.w || cur.Lens.Height != c.h {
		return calibration.Lens{}, "", fmt.Errorf("the lens in use is for %dx%d frames, the views are %dx%d: capture at least %d views to calibrate this mode",
			cur.Lens.Width, cur.Lens.Height, c.w, c.h, calibration.MinViews)
	}
	return cur.Lens, fmt.Sprintf("Lens kept from the calibration in use (%d view(s) held, %d needed for a new one); RMS shown is the table plane's. ", n, calibration.MinViews), nil
}

// distanceUncertaintyMM is the uncertainty of an edge-to-edge distance:
// two points each known to the edge-of-view figure, independent, and the
// detector's own error, added in quadrature.
func distanceUncertaintyMM(u calibration.Uncertainty) float64 {
	return math.Sqrt(2*u.EdgeMM*u.EdgeMM + detectorEdgeMM*detectorEdgeMM)
}

// Save writes the solved calibration.
func (c *liveCalibrator) Save() (string, error) {
	c.mu.Lock()
	cal := c.solved
	c.mu.Unlock()
	if cal == nil {
		return "", errors.New("nothing to save: solve first")
	}
	if err := calibration.Save(c.out, cal); err != nil {
		return "", err
	}
	return c.out, nil
}
