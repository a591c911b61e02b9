package bench

import (
	"image"
	"math"
	"testing"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision/synth"
)

// pixelTruth is a detector that knows where the scene's disks lie in the
// image: it maps the frame's true pixel circles through the calibration,
// as a perfect detector would. It reads the scene of a game, so it sees
// the camera as it now is.
type pixelTruth struct {
	cal   *calibration.Calibration
	scene *synth.Scene
	truth *models.Layout
}

func (p *pixelTruth) Detect(image.Image) (models.Layout, error) {
	l := p.truth.Clone()
	for i := range l.Disks {
		d := &l.Disks[i]
		d.Stats = nil
		q, err := p.cal.TableFromImage(d.Pixel.PX, d.Pixel.PY, models.Centimetres(0.2*float64(d.Z+1)))
		if err != nil {
			return l, err
		}
		d.X, d.Y = q.X, q.Y
	}
	return l, nil
}

func TestTrackingScoresAPerfectReaderAsPerfect(t *testing.T) {
	var det *pixelTruth
	cfg := TrackingConfig{Seed: 4, Minutes: 0.5, Width: 480, Height: 270,
		Detector: func(cal *calibration.Calibration) (Detector, error) {
			det = &pixelTruth{cal: cal}
			return det, nil
		}}
	cfg.observe = func(f synth.Frame) { det.truth = &f.Truth }
	rep, err := RunTracking(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Frames != 900 {
		t.Errorf("got %d frames, want 900", rep.Frames)
	}
	checks := []struct {
		name string
		got  float64
		want float64
	}{
		{"rulings on an unsettled table", float64(rep.UnsettledRuling), 0},
		{"identity switches", float64(rep.IdentitySwitches), 0},
		{"wrong identities", float64(rep.WrongIdentities), 0},
		{"missed rulings", float64(rep.MissedRulings), 0},
		{"missed disks", float64(rep.MissedDisks), 0},
		{"phantom disks", float64(rep.PhantomDisks), 0},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if rep.Rulings < 3 || rep.ExpectedRulings < 3 {
		t.Errorf("got %d rulings for %d rests needing one, want several", rep.Rulings, rep.ExpectedRulings)
	}
	if p := float64(rep.SettleP50); p < 10 || p > 15 {
		t.Errorf("frames to settle p50: got %v, want 10 to 15 (the gate waits 15 still frames; the arm leaves the view a frame or two before the truth says it has gone)", rep.SettleP50)
	}
	if math.IsNaN(float64(rep.HandSeen)) || rep.HandSeen < 0.6 {
		t.Errorf("hand recall: got %v, want at least 0.6", rep.HandSeen)
	}
}

func TestTrackingNeedsADetector(t *testing.T) {
	if _, err := RunTracking(TrackingConfig{Minutes: 0.1}); err == nil {
		t.Errorf("no detector: got no error")
	}
}

func TestSameTruth(t *testing.T) {
	a := models.Layout{Disks: []models.Disk{{ID: "d1", X: 1, Y: 2, R: 2}}, Tokens: []models.Token{{ID: "t1", X: 3, Y: 3, R: 1}}}
	moved := a.Clone()
	moved.Disks[0].X = 1.5
	noToken := a.Clone()
	noToken.Tokens = nil
	cases := []struct {
		name string
		b    models.Layout
		want bool
	}{{"itself", a.Clone(), true}, {"a disk moved", moved, false}, {"a token gone", noToken, false}}
	for _, c := range cases {
		if got := sameTruth(a, c.b); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
