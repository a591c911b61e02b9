package vision

import (
	"fmt"
	"math"
	"strings"

	"gocv.io/x/gocv"

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
// reads them. Rendered board views read 193-255 (the spread of the
// tiers' lamps), so none of the benchmark's scenes changes.
//
// The paper's colour also tells the light's: a tungsten lamp's warmth or
// a cold daylight shifts every chit's colour off the catalogue's (on
// medium tables a warm cast, blue at 0.75 and red at 1.1, left 24 of 48
// chits; a cold one 16). When one of the white's red, green and blue
// strays more than whiteCast from their mean, each is scaled to the mean
// (at most whiteMostGain): white paper is grey. Rendered board views
// stray 4 % at most.
const (
	exposureWhite    = 225.0
	exposureDim      = 0.8
	exposureMostGain = 4.0
	whiteCast        = 0.08
	whiteMostGain    = 2.0
)

// frameGains returns the gain on each of the frame's blue, green and red
// for cal (white balance times exposure), and whether any differs from 1.
func frameGains(cal *calibration.Calibration) ([3]float64, bool) {
	e := exposureGain(cal)
	bgr := [3]float64{e, e, e}
	if cal == nil {
		return bgr, false
	}
	wb := whiteBalance(cal.Quality.BoardWhiteRGB)
	for c := range bgr {
		bgr[c] *= wb[2-c] // wb is red, green, blue
	}
	return bgr, bgr != [3]float64{1, 1, 1}
}

// whiteBalance returns the gains on red, green and blue that make the
// board's white rgb grey, or ones when it is grey enough (whiteCast) or
// not measured. A clipped channel (WhiteClipped) is balanced as read:
// short of the light's colour, but nearer it than not at all.
func whiteBalance(rgb [3]float64) [3]float64 {
	one := [3]float64{1, 1, 1}
	if !(rgb[0] > 0 && rgb[1] > 0 && rgb[2] > 0) {
		return one
	}
	m := (rgb[0] + rgb[1] + rgb[2]) / 3
	cast := false
	for _, v := range rgb {
		cast = cast || math.Abs(v/m-1) > whiteCast
	}
	if !cast {
		return one
	}
	var g [3]float64
	for c, v := range rgb {
		g[c] = min(whiteMostGain, max(1/whiteMostGain, m/v))
	}
	return g
}

// applyGains writes src scaled channel by channel by bgr into dst (a
// look-up table: one pass, saturating at 255).
func applyGains(src gocv.Mat, dst *gocv.Mat, bgr [3]float64) {
	table := make([]byte, 256*3)
	for v := range 256 {
		for c := range 3 {
			table[3*v+c] = uint8(min(255, math.Round(float64(v)*bgr[c])))
		}
	}
	lut, err := gocv.NewMatFromBytes(1, 256, gocv.MatTypeCV8UC3, table)
	if err != nil {
		src.CopyTo(dst)
		return
	}
	defer lut.Close()
	gocv.LUT(src, lut, dst)
}

// ExposureGain returns by how much the detector brightens the frames
// seen through cal (1: not at all); see exposureGain.
func ExposureGain(cal *calibration.Calibration) float64 { return exposureGain(cal) }

// whiteClip is the level from which a channel of the board's white may
// be clipped by the camera: the light's colour is then not fully known (a
// warm light read 255, 230, 170 for 300, 230, 170 is balanced a fifth
// short), and calibrate says so.
const whiteClip = 250

// WhiteClipped reports whether a channel of the board's white rgb
// reaches whiteClip.
func WhiteClipped(rgb [3]float64) bool {
	return rgb[0] >= whiteClip || rgb[1] >= whiteClip || rgb[2] >= whiteClip
}

// WhiteBalance returns the gains on red, green and blue the detector
// applies to frames seen through cal (ones: none); see whiteBalance.
func WhiteBalance(cal *calibration.Calibration) [3]float64 {
	if cal == nil {
		return [3]float64{1, 1, 1}
	}
	return whiteBalance(cal.Quality.BoardWhiteRGB)
}

// exposureGain returns by how much to brighten the frames seen through
// cal: 1 (not at all) without a calibration, without a measured board
// white, or when the board's white shows the camera exposed for the
// table.
func exposureGain(cal *calibration.Calibration) float64 {
	if cal == nil {
		return 1
	}
	w := cal.Quality.BoardWhite
	if rgb := cal.Quality.BoardWhiteRGB; whiteBalance(rgb) != [3]float64{1, 1, 1} {
		// Balanced, the white is the mean of its red, green and blue.
		w = (rgb[0] + rgb[1] + rgb[2]) / 3
	}
	if !(w > 0) || w >= exposureDim*exposureWhite {
		return 1
	}
	return min(exposureMostGain, exposureWhite/w)
}

// LightCorrection says how the detector corrects the frames seen through
// cal for a dim or coloured light ("" when it does not): the warning each
// frame's Result carries.
func LightCorrection(cal *calibration.Calibration) string {
	if gains, ok := frameGains(cal); ok {
		return exposureWarning(cal, gains)
	}
	return ""
}

// exposureWarning says why the frames' colours are scaled by bgr.
func exposureWarning(cal *calibration.Calibration, bgr [3]float64) string {
	var says []string
	if e := exposureGain(cal); e > 1 {
		says = append(says, fmt.Sprintf("the camera is set dark: the board's white squares read %.0f of 255 in the calibration's table photograph (about %.0f when exposed for the table)", cal.Quality.BoardWhite, exposureWhite))
	}
	if wb := whiteBalance(cal.Quality.BoardWhiteRGB); wb != [3]float64{1, 1, 1} {
		w := cal.Quality.BoardWhiteRGB
		says = append(says, fmt.Sprintf("the light is coloured: the board's white reads red %.0f, green %.0f, blue %.0f", w[0], w[1], w[2]))
	}
	return fmt.Sprintf("%s; frames scaled blue %.2fx, green %.2fx, red %.2fx (a brighter, whiter light or the camera's white balance is better; then calibrate the table plane again)",
		strings.Join(says, "; "), bgr[0], bgr[1], bgr[2])
}

// greyFrameWarning says what a frame without colour costs: rims and chits
// are told by their colours.
const greyFrameWarning = "the frame has no colour (a grey image): rim colours come out unknown and chits, told by their colours, are mostly not found"

// greyPixels reports whether the BGR frame m is grey all over: a sample
// of its pixels (one in 97, as a grid would miss a pattern) with blue,
// green and red within 2 levels of each other.
func greyPixels(m gocv.Mat) bool {
	b, err := m.DataPtrUint8()
	if err != nil || len(b) < 3 {
		return false
	}
	n := len(b) / 3
	for i := 0; i < n; i += 97 {
		bl, g, r := int(b[3*i]), int(b[3*i+1]), int(b[3*i+2])
		if max(bl, g, r)-min(bl, g, r) > 2 {
			return false
		}
	}
	return true
}
