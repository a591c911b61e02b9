package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"tableref/vision/synth"
)

// Report is the outcome of a run.
type Report struct {
	Width   int     `json:"width"`
	Height  int     `json:"height"`
	Scenes  int     `json:"scenes_per_tier"`
	TableCm float64 `json:"table_cm"`
	// Detection is false until a detector is plugged in.
	Detection bool `json:"detection_measured"`
	// Decoder is how the photographs' JPEGs were decoded ("go": Go's
	// image/jpeg; "opencv": OpenCV's imdecode, as files and cameras are).
	Decoder string `json:"jpeg_decoder"`
	// Lamp is the light's height in degrees when every scene was lit
	// from it (see synth.Options.Lamp); 0: the tiers' own lights.
	Lamp  float64      `json:"lamp_degrees,omitempty"`
	Tiers []TierReport `json:"tiers"`
}

// TierReport holds the figures of one tier. Lengths are in mm; NaN
// (written as null in JSON) where nothing was measured.
type TierReport struct {
	Tier        synth.Tier `json:"tier"`
	Calibration Calib      `json:"calibration"`
	Detection   *Detect    `json:"detection,omitempty"`
}

// Calib is the table-plane calibration error over the table.
type Calib struct {
	P50MM      Num `json:"p50_mm"`
	P95MM      Num `json:"p95_mm"`
	MaxMM      Num `json:"max_mm"`
	Points     int `json:"points"`
	BoardFails int `json:"board_not_found"`
}

// Detect holds the detection figures.
type Detect struct {
	Frames         int `json:"frames"`
	Failed         int `json:"failed_frames"`
	DiskF1         Num `json:"disk_f1"`
	CentreMedianMM Num `json:"centre_error_median_mm"`
	CentreP95MM    Num `json:"centre_error_p95_mm"`
	RadiusMedianMM Num `json:"radius_error_median_mm"`
	RadiusP95MM    Num `json:"radius_error_p95_mm"`
	EdgeMedianMM   Num `json:"edge_error_median_mm"`
	EdgeP95MM      Num `json:"edge_error_p95_mm"`
	// StackingOrder is the share of the true overlapping pairs (of
	// different levels) ordered right; a pair with a disk not found is
	// not. StackingOrderFound is the share among the pairs whose two
	// disks were found. OverlappingPairs counts the pairs, PairsFound
	// those found.
	StackingOrder      Num `json:"stacking_order_accuracy"`
	StackingOrderFound Num `json:"stacking_order_accuracy_found_pairs"`
	OverlappingPairs   int `json:"overlapping_pairs"`
	PairsFound         int `json:"overlapping_pairs_found"`
	// RimColour is the share of the disks found, of a true rim colour,
	// whose rim colour (rim_colour) is read right.
	RimColour       Num       `json:"rim_colour_accuracy"`
	TokenF1         Num       `json:"token_f1"`
	TokenAssignment Num       `json:"token_assignment_accuracy"`
	TokenKind       Num       `json:"token_kind_accuracy"`
	FPS             Num       `json:"fps"`
	StageMS         []StageMS `json:"ms_per_stage"`
}

// StageMS is the mean time of a stage per frame, over the frames whose
// stages were timed (not those the detector refused).
type StageMS struct {
	Name string `json:"name"`
	MS   Num    `json:"ms"`
}

// Num is a figure that may be missing (NaN): JSON null.
type Num float64

// MarshalJSON writes NaN and infinities as null, others rounded to 4
// decimals.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(math.Round(f*1e4) / 1e4)
}

func (n Num) String() string {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return "-"
	}
	return fmt.Sprintf("%.3f", float64(n))
}

func (run tierRun) report(tier synth.Tier, cfg Config) TierReport {
	tr := TierReport{Tier: tier, Calibration: Calib{
		P50MM: Num(synth.Percentile(run.planeErrs, 50)), P95MM: Num(synth.Percentile(run.planeErrs, 95)),
		MaxMM: Num(synth.Percentile(run.planeErrs, 100)), Points: len(run.planeErrs), BoardFails: run.boardFails,
	}}
	if cfg.Detector == nil {
		return tr
	}
	d := run.det
	det := &Detect{
		Frames: d.frames, Failed: d.failed,
		DiskF1:         Num(f1(d.diskTP, d.diskFP, d.diskFN)),
		CentreMedianMM: Num(synth.Percentile(d.centreMM, 50)), CentreP95MM: Num(synth.Percentile(d.centreMM, 95)),
		RadiusMedianMM: Num(synth.Percentile(d.radiusMM, 50)), RadiusP95MM: Num(synth.Percentile(d.radiusMM, 95)),
		EdgeMedianMM: Num(synth.Percentile(d.edgeMM, 50)), EdgeP95MM: Num(synth.Percentile(d.edgeMM, 95)),
		StackingOrder:      Num(ratio(d.orderRight, d.orderPairs)),
		StackingOrderFound: Num(ratio(d.orderRight, d.orderFound)),
		OverlappingPairs:   d.orderPairs, PairsFound: d.orderFound,
		RimColour:       Num(ratio(d.rimRight, d.rimMatched)),
		TokenF1:         Num(f1(d.tokTP, d.tokFP, d.tokFN)),
		TokenAssignment: Num(ratio(d.assignRight, d.assignMatched)),
		TokenKind:       Num(ratio(d.kindRight, d.assignMatched)),
		FPS:             Num(float64(d.frames) / d.total.Seconds()),
	}
	for _, name := range d.stageOrder {
		det.StageMS = append(det.StageMS, StageMS{name, Num(float64(d.stages[name].Microseconds()) / 1000 / float64(d.staged))})
	}
	tr.Detection = det
	return tr
}

// WriteJSON writes the report as indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// decoderText names the report's JPEG decoder for people.
func (r Report) decoderText() string {
	switch r.Decoder {
	case "go", "":
		return "Go's image/jpeg"
	case "opencv":
		return "OpenCV (libjpeg, as files and cameras are read)"
	}
	return r.Decoder
}

// WriteText writes the report as tables for people.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	lamp := ""
	if r.Lamp != 0 {
		lamp = fmt.Sprintf(", lit by a lamp %g degrees up", r.Lamp)
	}
	fmt.Fprintf(&b, "Synthetic scenes: %d per tier, %dx%d%s; calibration error over a %g cm table.\n\n", r.Scenes, r.Width, r.Height, lamp, r.TableCm)
	fmt.Fprintf(&b, "%-8s %12s %12s %12s %8s %10s\n", "tier", "calib p50", "calib p95", "calib max", "points", "no board")
	for _, t := range r.Tiers {
		c := t.Calibration
		fmt.Fprintf(&b, "%-8s %9s mm %9s mm %9s mm %8d %10d\n", t.Tier, c.P50MM, c.P95MM, c.MaxMM, c.Points, c.BoardFails)
	}
	if !r.Detection {
		b.WriteString("\nDetection: not measured yet (no detector is plugged into the harness).\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "\nDetection, photographs decoded by %s:\n", r.decoderText())
	fmt.Fprintf(&b, "%-8s %7s %14s %14s %14s %12s %7s %7s %7s %7s %7s\n", "tier", "disk F1", "centre med/95", "radius med/95", "edge med/95", "order/found", "rim", "tok F1", "kind", "assign", "fps")
	for _, t := range r.Tiers {
		d := t.Detection
		fmt.Fprintf(&b, "%-8s %7s %14s %14s %14s %12s %7s %7s %7s %7s %7s\n", t.Tier, d.DiskF1,
			d.CentreMedianMM.String()+"/"+d.CentreP95MM.String(), d.RadiusMedianMM.String()+"/"+d.RadiusP95MM.String(),
			d.EdgeMedianMM.String()+"/"+d.EdgeP95MM.String(), d.StackingOrder.String()+"/"+d.StackingOrderFound.String(),
			d.RimColour, d.TokenF1, d.TokenKind, d.TokenAssignment, d.FPS)
	}
	b.WriteString("(lengths in mm; order: share of the true overlapping pairs ordered right, a pair with a disk not found counting as wrong; found: share of the pairs whose two disks were found; rim: share of the disks found whose rim colour is read right; kind, assign: share of the tokens found right)\n")
	for _, t := range r.Tiers {
		if len(t.Detection.StageMS) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s ms per stage:", t.Tier)
		for _, s := range t.Detection.StageMS {
			fmt.Fprintf(&b, " %s %s", s.Name, s.MS)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
