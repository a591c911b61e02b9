package vision

import (
	"fmt"

	"tableref/calibration"
)

// How a dim camera is brightened
//
// The detector's thresholds and the token catalogue's colours are grey
// levels and colours as a camera exposed for the table shows them: under
// the game's light, white paper at about exposureWhite. A camera set
// darker (its exposure fixed low, a lamp turned down since) shows every
// chit darker than any catalogue colour's ray reaches: on medium tables
// at half the exposure the detector found 3 of 48 chits. The frame alone
// cannot tell a dim camera from a dark table (rendered frames' brightest
// half percent lies anywhere from 95 to 211). The calibration can: the
// board lying on the table in the plane's photograph is white paper under
// the game's light (calibration.BoardWhite). When its white squares read
// under exposureDim of exposureWhite, the frames are brightened by
// exposureWhite over that, at most exposureMostGain, before anything else
// reads them. Rendered board views read 197-255 (the spread of the
// tiers' lamps), so none of the benchmark's scenes changes.
const (
	exposureWhite    = 225.0
	exposureDim      = 0.8
	exposureMostGain = 4.0
)

// ExposureGain returns by how much the detector brightens the frames
// seen through cal (1: not at all); see exposureGain.
func ExposureGain(cal *calibration.Calibration) float64 { return exposureGain(cal) }

// exposureGain returns by how much to brighten the frames seen through
// cal: 1 (not at all) without a calibration, without a measured board
// white, or when the board's white shows the camera exposed for the
// table.
func exposureGain(cal *calibration.Calibration) float64 {
	if cal == nil {
		return 1
	}
	w := cal.Quality.BoardWhite
	if !(w > 0) || w >= exposureDim*exposureWhite {
		return 1
	}
	return min(exposureMostGain, exposureWhite/w)
}

// exposureWarning says why the frames are brightened by gain.
func exposureWarning(cal *calibration.Calibration, gain float64) string {
	return fmt.Sprintf("the camera is set dark: the board's white squares read %.0f of 255 in the calibration's table photograph (about %.0f when exposed for the table); frames brightened %.2fx (brighten the camera or the lamp, then calibrate the table plane again)",
		cal.Quality.BoardWhite, exposureWhite, gain)
}
