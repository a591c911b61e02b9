package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/models"
	"tableref/vision"
	"tableref/vision/bench"
	"tableref/vision/synth"
)

// TestVisionBenchOnSmallScenes runs the real detector through the harness
// on one small rendered scene of each of two tiers and checks that every
// detection figure is measured and plausible, and that the HoughCircles
// baseline timed the same frames.
func TestVisionBenchOnSmallScenes(t *testing.T) {
	cfg := bench.Config{Tiers: []synth.Tier{synth.Easy, synth.Medium}, Scenes: 1, Seed: 3, Width: 640, Height: 360}
	hough := newHoughBaseline(cfg)
	cfg.Detector = newVisionBench(hough.seen)
	cfg.Progress = func(tier synth.Tier, k, _ int) { hough.progress(tier, k) }
	rep, err := bench.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	hr := hough.report()
	if hough.err != nil {
		t.Fatal(hough.err)
	}
	if !rep.Detection || len(rep.Tiers) != 2 {
		t.Fatalf("got detection %v over %d tiers, want measured over 2", rep.Detection, len(rep.Tiers))
	}
	for _, tr := range rep.Tiers {
		d := tr.Detection
		if d == nil || d.Frames != 1 || d.Failed != 0 {
			t.Fatalf("%s: got %+v, want one frame detected", tr.Tier, d)
		}
		if f := float64(d.DiskF1); !(f >= 0.5) {
			t.Errorf("%s: got disk F1 %v, want at least 0.5 on a small clean scene", tr.Tier, f)
		}
		if c := float64(d.CentreMedianMM); !(c < 5) {
			t.Errorf("%s: got median centre error %v mm, want under 5 mm", tr.Tier, c)
		}
		if !(float64(d.FPS) > 0) {
			t.Errorf("%s: got %v fps, want a positive rate", tr.Tier, d.FPS)
		}
		names := map[string]bool{}
		for _, s := range d.StageMS {
			names[s.Name] = true
		}
		for _, want := range []string{"edges", "disks", "refine", "stacking", "tokens"} {
			if !names[want] {
				t.Errorf("%s: got stages %v, want %q among them", tr.Tier, d.StageMS, want)
			}
		}
	}
	if len(hr.Tiers) != 2 {
		t.Fatalf("got the Hough baseline on %d tiers, want 2", len(hr.Tiers))
	}
	for _, ht := range hr.Tiers {
		if ht.Frames != 1 || !(float64(ht.HoughMS) > 0) || !(float64(ht.DetectorMS) > 0) {
			t.Errorf("%s: got %+v, want one frame timed by both", ht.Tier, ht)
		}
		if r := float64(ht.Ratio); math.Abs(r-float64(ht.DetectorMS)/float64(ht.HoughMS)) > 1e-9 {
			t.Errorf("%s: got ratio %v, want detector ms / Hough ms", ht.Tier, r)
		}
		if !(ht.MinRadiusPx > 0 && ht.MaxRadiusPx > ht.MinRadiusPx) {
			t.Errorf("%s: got HoughCircles radii %d-%d px, want the detector's range", ht.Tier, ht.MinRadiusPx, ht.MaxRadiusPx)
		}
	}
	if hough.pending != nil {
		t.Error("got a frame still held after the report, want none")
	}
}

func TestMatchCentres(t *testing.T) {
	truth := synthDisks([3]float64{100, 100, 20}, [3]float64{200, 100, 30})
	tests := []struct {
		name string
		got  []vision.Circle
		want int
	}{
		{"both found", []vision.Circle{{X: 101, Y: 99, R: 20}, {X: 205, Y: 100, R: 29}}, 2},
		{"a centre too far off", []vision.Circle{{X: 111, Y: 100, R: 20}}, 0},
		{"one circle counts once", []vision.Circle{{X: 100, Y: 100, R: 20}}, 1},
		{"two circles on one disk count once", []vision.Circle{{X: 100, Y: 100, R: 20}, {X: 102, Y: 100, R: 21}}, 1},
		{"nothing found", nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matchCentres(truth, tt.got); got != tt.want {
				t.Errorf("got %d matches, want %d", got, tt.want)
			}
		})
	}
}

// HoughCircles' circles are paired with the true disks as the harness
// pairs the detector's: as many pairs as can be made. Here the first
// circle is nearest to the first disk, but the second circle can stand
// only for the first disk.
func TestMatchCentresPairsAsManyAsCanBePaired(t *testing.T) {
	truth := synthDisks([3]float64{100, 100, 20}, [3]float64{115, 100, 20})
	got := []vision.Circle{{X: 108, Y: 100, R: 20}, {X: 91, Y: 100, R: 20}}
	if n := matchCentres(truth, got); n != 2 {
		t.Errorf("got %d matches, want 2", n)
	}
}

// On rendered scenes HoughCircles searches the radii the detector
// searches (0.8 to 20 cm), in pixels through the calibration: every true
// disk within, and not every radius up to the frame's size.
func TestHoughSearchesTheDetectorsRadii(t *testing.T) {
	for _, tier := range []synth.Tier{synth.Easy, synth.Hard} {
		sc, err := synth.Generate(4, tier, synth.Options{Width: 1920, Height: 1080})
		if err != nil {
			t.Fatal(err)
		}
		cal, err := sc.TrueCalibration()
		if err != nil {
			t.Fatal(err)
		}
		p := houghFor(cal)
		if p.maxR <= 0 || p.maxR >= 1920/2 || p.minR < 1 {
			t.Fatalf("%s: got radii %d-%d px, want a range within the frame", tier, p.minR, p.maxR)
		}
		for _, d := range sc.Truth.Disks {
			if d.Pixel != nil && (d.Pixel.PR < float64(p.minR) || d.Pixel.PR > float64(p.maxR)) {
				t.Errorf("%s: disk %s of %.1f px is outside %d-%d px", tier, d.ID, d.Pixel.PR, p.minR, p.maxR)
			}
		}
		if q := houghFor(nil); q != readmeHough {
			t.Errorf("no calibration: got %+v, want the README's parameters", q)
		}
	}
}

// writeCircleDataSet writes a made-up data set in the circle data set's
// format: three dark-rimmed disks on a light background, one with an
// inner ring in its ground truth, and an image named "sb" that must be
// left out.
func writeCircleDataSet(t *testing.T, root string) {
	t.Helper()
	for _, d := range []string{"images", "gt"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	disks := [][3]float64{{70, 80, 40}, {190, 90, 35}, {130, 190, 45}}
	for _, name := range []string{"rims", "sb"} {
		img := image.NewRGBA(image.Rect(0, 0, 260, 260))
		for y := range 260 {
			for x := range 260 {
				c := color.RGBA{220, 215, 200, 255}
				for _, d := range disks {
					r := math.Hypot(float64(x)-d[0], float64(y)-d[1])
					switch {
					case r <= d[2]-6:
						c = color.RGBA{150, 170, 210, 255}
					case r <= d[2]:
						c = color.RGBA{30, 40, 60, 255}
					}
				}
				img.Set(x, y, c)
			}
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "images", name+".png"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		gt := fmt.Sprintf("4\r\n%g %g %g\r\n%g %g %g\r\n%g %g %g\r\n%g %g %g\r\n",
			disks[0][0], disks[0][1], disks[0][2], disks[1][0], disks[1][1], disks[1][2],
			disks[2][0], disks[2][1], disks[2][2], disks[2][0], disks[2][1], disks[2][2]-6)
		if err := os.WriteFile(filepath.Join(root, "gt", name+".txt"), []byte(gt), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRealDataScoresOuterCircles(t *testing.T) {
	root := filepath.Join(t.TempDir(), "circle-dataset-mini")
	writeCircleDataSet(t, root)
	rep, err := runRealData(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Images) != 1 || rep.Images[0].Name != "rims" {
		t.Fatalf("got images %+v, want only rims (sb left out)", rep.Images)
	}
	im := rep.Images[0]
	if im.Truth != 3 {
		t.Errorf("got %d true circles, want 3 (the inner ring dropped)", im.Truth)
	}
	if im.Detector.Matched != 3 || float64(im.Detector.F) != 1 {
		t.Errorf("got detector %+v, want the three rims found and nothing else", im.Detector)
	}
	if im.Hough.Detected == 0 {
		t.Errorf("got HoughCircles %+v, want circles found", im.Hough)
	}
	if rep.Detector.Matched != im.Detector.Matched || rep.Detector.Detected != im.Detector.Detected {
		t.Errorf("got overall %+v, want the one image's %+v", rep.Detector, im.Detector)
	}
	// Against every annotated circle, as the data set's baselines are
	// scored, the inner ring not found is a miss.
	if rep.AllTruth != 4 || rep.DetectorAll.Matched != 3 || math.Abs(float64(rep.DetectorAll.Recall)-0.75) > 1e-9 {
		t.Errorf("got all circles %d, detector %+v; want 4 circles, 3 matched, recall 0.75", rep.AllTruth, rep.DetectorAll)
	}
}

func TestFindRealData(t *testing.T) {
	// A clone in top/main with shared/ beside it.
	top := t.TempDir()
	data := filepath.Join(top, realDataRel)
	deep := filepath.Join(top, "main", "cmd", "tableref")
	for _, d := range []string{data, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(top, "main", "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, ok := findRealData(deep); !ok || got != data {
		t.Errorf("from %s: got %q, %v; want %q, true", deep, got, ok, data)
	}
	// Outside a repository only the folder and its parent are looked in:
	// a shared/ two levels up is not taken.
	far := filepath.Join(top, "a", "b", "c")
	if err := os.MkdirAll(far, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, ok := findRealData(far); ok {
		t.Errorf("from %s: got %q, want not found", far, got)
	}
}

func TestBenchCommandLine(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a file argument", []string{"x.json"}, "no file argument"},
		{"contradicting real-data flags", []string{"--realdata", "d", "--no-realdata"}, "contradict"},
		{"an unknown tier", []string{"--tiers", "easy,nightmare"}, "--tiers"},
		{"an unknown format", []string{"--format", "xml"}, "unknown format"},
		{"a lamp under the table", []string{"--lamp", "-10"}, "--lamp"},
		{"a lamp past the zenith", []string{"--lamp", "120"}, "--lamp"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"bench"}, tt.args...), &env{stdout: &out, stderr: &errb})
			if code != 2 || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("got exit %d, stderr %q; want 2 and %q", code, errb.String(), tt.want)
			}
		})
	}
}

// TestBenchJSONWithRealData runs the command end to end on one small
// scene with the made-up data set and reads its JSON.
func TestBenchJSONWithRealData(t *testing.T) {
	root := filepath.Join(t.TempDir(), "set")
	writeCircleDataSet(t, root)
	var out, errb bytes.Buffer
	code := run([]string{"bench", "--scenes", "1", "--tiers", "easy", "--size", "640x360", "--realdata", root, "--format", "json"},
		&env{stdout: &out, stderr: &errb})
	if code != 0 {
		t.Fatalf("got exit %d: %s", code, errb.String())
	}
	var got struct {
		Detection bool `json:"detection_measured"`
		Tiers     []struct {
			Detection *struct {
				DiskF1 *float64 `json:"disk_f1"`
			} `json:"detection"`
		} `json:"tiers"`
		Hough struct {
			Tiers []struct {
				HoughMS *float64 `json:"hough_ms"`
			} `json:"tiers"`
		} `json:"hough_baseline"`
		Real struct {
			Found  bool `json:"found"`
			Images []struct {
				Name string `json:"name"`
			} `json:"images"`
		} `json:"real_photographs"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if !got.Detection || len(got.Tiers) != 1 || got.Tiers[0].Detection == nil || got.Tiers[0].Detection.DiskF1 == nil {
		t.Errorf("got %s, want the easy tier's disk F1", out.String())
	}
	if len(got.Hough.Tiers) != 1 || got.Hough.Tiers[0].HoughMS == nil {
		t.Errorf("got hough_baseline %+v, want one tier timed", got.Hough)
	}
	if !got.Real.Found || len(got.Real.Images) != 1 {
		t.Errorf("got real_photographs %+v, want the one image scored", got.Real)
	}
}

// --decoder opencv decodes the photographs as files are read, and says so.
func TestBenchDecodesWithOpenCV(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"bench", "--scenes", "1", "--tiers", "easy", "--size", "640x360", "--no-realdata", "--decoder", "opencv", "--format", "json"},
		&env{stdout: &out, stderr: &errb})
	if code != 0 {
		t.Fatalf("got exit %d: %s", code, errb.String())
	}
	var got struct {
		Decoder string `json:"jpeg_decoder"`
		Tiers   []struct {
			Detection *struct {
				DiskF1 *float64 `json:"disk_f1"`
			} `json:"detection"`
		} `json:"tiers"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v in %s", err, out.String())
	}
	if got.Decoder != "opencv" || len(got.Tiers) != 1 || got.Tiers[0].Detection == nil || got.Tiers[0].Detection.DiskF1 == nil || *got.Tiers[0].Detection.DiskF1 < 0.9 {
		t.Errorf("got %s, want the easy tier detected through OpenCV's decoder", out.String())
	}
}

// TestBenchUnderALamp: --lamp lights every scene from low beside the
// table, and the report says so, in JSON and in text.
func TestBenchUnderALamp(t *testing.T) {
	for _, format := range []string{"json", "text"} {
		var out, errb bytes.Buffer
		code := run([]string{"bench", "--scenes", "1", "--tiers", "easy", "--size", "640x360", "--no-realdata", "--no-detect", "--lamp", "30", "--format", format},
			&env{stdout: &out, stderr: &errb})
		if code != 0 {
			t.Fatalf("%s: got exit %d: %s", format, code, errb.String())
		}
		want := "lit by a lamp 30 degrees up"
		if format == "json" {
			want = `"lamp_degrees": 30`
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("%s report %s does not say %q", format, out.String(), want)
		}
	}
}

func TestBenchSaysWhenRealDataIsMissing(t *testing.T) {
	t.Chdir(t.TempDir())
	var out, errb bytes.Buffer
	code := run([]string{"bench", "--scenes", "1", "--tiers", "easy", "--no-detect"}, &env{stdout: &out, stderr: &errb})
	if code != 0 {
		t.Fatalf("got exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Real photographs: not measured") || !strings.Contains(out.String(), "--realdata") {
		t.Errorf("got %q, want a clear word that the real photographs were not found", out.String())
	}
}

// synthDisks makes disks with pixel circles (x, y, r).
func synthDisks(cs ...[3]float64) []models.Disk {
	out := make([]models.Disk, len(cs))
	for i, c := range cs {
		out[i] = models.Disk{ID: fmt.Sprint("d", i), Pixel: &models.ImageCircle{PX: c[0], PY: c[1], PR: c[2]}}
	}
	return out
}
