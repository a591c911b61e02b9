package ui

// Calibrator is what the calibration wizard drives: the calibration
// package, wired in by cmd, behind this interface so that ui never imports
// it. Its methods may be slow (they read the camera and solve the camera
// model); the wizard calls them off the UI goroutine, one at a time.
type Calibrator interface {
	// Capture takes one view of the calibration board as the camera sees
	// it now and returns how many usable views are held. A view in which
	// the board is not found is an error that says so.
	Capture() (views int, err error)
	// Solve computes the calibration from the views held.
	Solve() (CalibrationResult, error)
	// Save stores the solved calibration and returns where it went.
	Save() (path string, err error)
}

// CalibrationResult is what the wizard shows of a solved calibration.
type CalibrationResult struct {
	Views int
	// RMSPixels is the reprojection error, in pixels.
	RMSPixels float64
	// UncertaintyMM is the measurement uncertainty on the table, in mm;
	// the ranges panel uses it to call a distance too close to call.
	UncertaintyMM float64
	// Note says more about the solution (which view gave the table
	// plane, a lens kept from an earlier calibration); empty for none.
	Note string
}
