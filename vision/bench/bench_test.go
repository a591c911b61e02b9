package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"image"
	"math"
	"strings"
	"testing"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision/synth"
)

// oracle answers the truth of the scenes it is made for, in order.
type oracle struct{ layout models.Layout }

func (o oracle) Detect(image.Image) (models.Layout, error) { return o.layout, nil }
func (o oracle) LastStages() []Stage                       { return []Stage{{Name: "all", Took: 1000}} }

type failing struct{}

func (failing) Detect(image.Image) (models.Layout, error) {
	return models.Layout{}, errors.New("no frame")
}

func TestRunWithAPerfectDetector(t *testing.T) {
	tiers := []synth.Tier{synth.Medium}
	n := 0
	cfg := Config{Tiers: tiers, Scenes: 1, Seed: 5, Width: 800, Height: 450,
		Detector: func(*calibration.Calibration) (Detector, error) {
			sc, err := synth.Generate(5+uint64(n), tiers[0], synth.Options{Width: 800, Height: 450})
			n++
			return oracle{sc.Truth}, err
		}}
	rep, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tr := rep.Tiers[0]
	if p95 := float64(tr.Calibration.P95MM); !(p95 < 0.5) || tr.Calibration.Points < 100 {
		t.Errorf("calibration p95: got %v mm over %d points, want < 0.5 mm", p95, tr.Calibration.Points)
	}
	d := tr.Detection
	if d == nil || d.DiskF1 != 1 || d.CentreP95MM != 0 || d.EdgeP95MM != 0 || d.TokenF1 != 1 || d.TokenAssignment != 1 {
		t.Errorf("perfect detector: got %+v, want F1 1 and no error", d)
	}
	if len(d.StageMS) != 1 || d.StageMS[0].Name != "all" {
		t.Errorf("stages: got %+v, want one named all", d.StageMS)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Errorf("the JSON report does not parse: %v", err)
	}
}

func TestScoreCountsMistakes(t *testing.T) {
	truth := models.Layout{
		Disks: []models.Disk{
			{ID: "a", X: 0, Y: 0, R: 2, Z: 0, Rim: "red", RimColour: "red"},
			{ID: "b", X: 3, Y: 0, R: 2, Z: 1, Rim: "unknown", RimColour: "gold"},
			{ID: "c", X: 20, Y: 0, R: 2},
		},
		Tokens: []models.Token{
			{ID: "t", Kind: "gold", X: 1.5, Y: 2, R: 0.8, Touches: []string{"a", "b"}},
			{ID: "s", Kind: "damage", X: 20, Y: 3, R: 0.8},
		},
	}
	got := models.Layout{
		Disks: []models.Disk{
			{ID: "x", X: 0.1, Y: 0, R: 2, Z: 1, RimColour: "red"},              // a, 1 mm off, order wrong
			{ID: "y", X: 3, Y: 0, R: 2.05, Z: 0, Rim: "red", RimColour: "red"}, // b, radius 0.5 mm off, rim wrong
			{ID: "z", X: 40, Y: 0, R: 2},                                       // false positive; c missed
		},
		Tokens: []models.Token{
			{ID: "u", Kind: "gold", X: 1.5, Y: 2, R: 0.8, Touches: []string{"x"}},
			{ID: "v", Kind: "fireball", X: 20.2, Y: 3, R: 0.8}, // s, read as the wrong kind
		},
	}
	var d detectionTally
	d.score(truth, got)
	if d.diskTP != 2 || d.diskFP != 1 || d.diskFN != 1 {
		t.Errorf("disks: got TP %d FP %d FN %d, want 2 1 1", d.diskTP, d.diskFP, d.diskFN)
	}
	if f := f1(d.diskTP, d.diskFP, d.diskFN); math.Abs(f-2.0/3) > 1e-9 {
		t.Errorf("disk F1: got %v, want 2/3", f)
	}
	if d.orderPairs != 1 || d.orderRight != 0 {
		t.Errorf("stacking: got %d right of %d, want 0 of 1", d.orderRight, d.orderPairs)
	}
	if m := synth.Percentile(d.centreMM, 100); math.Abs(m-1) > 1e-9 {
		t.Errorf("worst centre error: got %v mm, want 1", m)
	}
	if d.assignMatched != 2 || d.assignRight != 1 {
		t.Errorf("token assignment: got %d right of %d, want 1 of 2 (t's b missing; s touches nothing)", d.assignRight, d.assignMatched)
	}
	if d.kindRight != 1 {
		t.Errorf("token kinds: got %d right, want 1 (s read as a fireball)", d.kindRight)
	}
	if d.rimMatched != 2 || d.rimRight != 1 {
		t.Errorf("rims: got %d right of %d, want 1 of 2 (b's gold read red)", d.rimRight, d.rimMatched)
	}
}

func TestRunWithoutADetectorSaysSo(t *testing.T) {
	rep, err := Run(Config{Tiers: []synth.Tier{synth.Easy}, Scenes: 1, Width: 640, Height: 360})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "not measured yet") || rep.Tiers[0].Detection != nil {
		t.Errorf("got:\n%s\nwant calibration only and a note", b.String())
	}
}

func TestAFailingDetectorIsCountedNotFatal(t *testing.T) {
	rep, err := Run(Config{Tiers: []synth.Tier{synth.Easy}, Scenes: 1, Width: 640, Height: 360,
		Detector: func(*calibration.Calibration) (Detector, error) { return failing{}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if d := rep.Tiers[0].Detection; d.Failed != 1 || d.DiskF1 != 0 {
		t.Errorf("got %+v, want 1 failed frame and F1 0", d)
	}
}

func BenchmarkCalibratePlane(b *testing.B) {
	sc, err := synth.Generate(1, synth.Medium, synth.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := calibratePlane(sc); err != nil {
			b.Fatal(err)
		}
	}
}

// sizeOf is a detector that notes the size of each photograph it is
// given and finds nothing.
type sizeOf struct{ seen *[]image.Rectangle }

func (s sizeOf) Detect(img image.Image) (models.Layout, error) {
	*s.seen = append(*s.seen, img.Bounds())
	return models.Layout{}, nil
}

// A configured decoder gets each photograph's JPEG, and its image is the
// one the detector sees; the report names it. Without one, Go's decoder.
func TestPhotographsGoThroughTheConfiguredDecoder(t *testing.T) {
	var seen []image.Rectangle
	det := func(*calibration.Calibration) (Detector, error) { return sizeOf{&seen}, nil }
	decoded := 0
	cfg := Config{Tiers: []synth.Tier{synth.Easy}, Scenes: 2, Seed: 3, Width: 640, Height: 360, Detector: det,
		Decoder: "stub", Decode: func(b []byte) (image.Image, error) {
			if len(b) < 2 || b[0] != 0xFF || b[1] != 0xD8 {
				t.Errorf("the decoder was given %d bytes that are not a JPEG", len(b))
			}
			decoded++
			return image.NewGray(image.Rect(0, 0, 7, 5)), nil
		}}
	rep, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if decoded != 2 || len(seen) != 2 || seen[0] != image.Rect(0, 0, 7, 5) || rep.Decoder != "stub" {
		t.Errorf("decoded %d, detector saw %v, report says %q: want 2 decodes, the decoder's images, \"stub\"", decoded, seen, rep.Decoder)
	}
	seen = seen[:0]
	cfg.Decoder, cfg.Decode = "", nil
	if rep, err = Run(cfg); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != image.Rect(0, 0, 640, 360) || rep.Decoder != "go" {
		t.Errorf("default: detector saw %v, report says %q; want 640x360 photographs, \"go\"", seen, rep.Decoder)
	}
}
