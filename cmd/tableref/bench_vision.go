package main

import (
	"errors"
	"fmt"
	"image"
	"math"
	"time"

	"gocv.io/x/gocv"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision"
	"tableref/vision/bench"
	"tableref/vision/synth"
)

// visionBench adapts vision.Detector to the benchmark harness
// (bench.Detector, bench.Staged and io.Closer). It is used by one
// goroutine.
type visionBench struct {
	det  *vision.Detector
	last []bench.Stage
	// hough are HoughCircles' parameters for the frames of this
	// calibration (houghFor).
	hough houghParams
	// seen, when set, is called after each detection with the frame, the
	// stage times and hough, for the HoughCircles baseline.
	seen func(image.Image, []bench.Stage, houghParams)
}

// newVisionBench returns the harness's detector factory: a vision
// detector for frames seen through cal. Each detector is warmed on a
// blank frame of the calibration's size, so that the timed frame costs
// what a frame of a running camera costs (the detector builds its
// rectification maps on the first frame of a size and keeps them).
func newVisionBench(seen func(image.Image, []bench.Stage, houghParams)) bench.NewDetector {
	return func(cal *calibration.Calibration) (bench.Detector, error) {
		d := vision.NewDetector(vision.Options{Calibration: cal})
		if cal != nil && cal.Lens.Width > 0 && cal.Lens.Height > 0 {
			blank := image.NewGray(image.Rect(0, 0, cal.Lens.Width, cal.Lens.Height))
			for i := range blank.Pix {
				blank.Pix[i] = 128
			}
			if _, err := d.DetectImage(blank); err != nil {
				d.Close()
				return nil, err
			}
		}
		return &visionBench{det: d, hough: houghFor(cal), seen: seen}, nil
	}
}

// Detect runs the detector on one photograph.
func (v *visionBench) Detect(img image.Image) (models.Layout, error) {
	res, err := v.det.DetectImage(img)
	v.last = v.last[:0]
	for _, s := range res.Stages {
		v.last = append(v.last, bench.Stage{Name: s.Name, Took: s.Took})
	}
	if v.seen != nil && err == nil {
		v.seen(img, v.last, v.hough)
	}
	return res.Layout, err
}

// LastStages returns the stage times of the last Detect.
func (v *visionBench) LastStages() []bench.Stage { return v.last }

// Close frees the detector.
func (v *visionBench) Close() error { return v.det.Close() }

// opencvDecode decodes a rendered photograph's JPEG as "tableref detect"
// reads a file and a webcam's MJPEG is read: with OpenCV's libjpeg, whose
// chroma upsampling is smoother than Go's image/jpeg.
func opencvDecode(jpeg []byte) (image.Image, error) {
	m, err := gocv.IMDecode(jpeg, gocv.IMReadColor)
	if err != nil {
		return nil, fmt.Errorf("decoding the photograph with OpenCV: %w", err)
	}
	defer m.Close()
	if m.Empty() {
		return nil, errors.New("OpenCV cannot decode the photograph")
	}
	return m.ToImage()
}

// houghGradientAlt is OpenCV's cv::HOUGH_GRADIENT_ALT (4), which gocv
// v0.32 does not name.
const houghGradientAlt gocv.HoughMode = 4

// houghParams are HoughCircles' parameters: those with which the real
// photographs' README measured OpenCV (HOUGH_GRADIENT_ALT, dp 1.5,
// minDist 10, param1 300, param2 0.8, minRadius 5, after a median blur
// of 5).
type houghParams struct {
	dp, minDist, param1, param2 float64
	minR, maxR                  int
}

var readmeHough = houghParams{dp: 1.5, minDist: 10, param1: 300, param2: 0.8, minR: 5}

// The calibrated detector looks for disks of radius detectorMinRCm to
// detectorMaxRCm on the table (vision's arcParams); HoughCircles is
// given the same range in pixels on the rendered scenes. Without it,
// HoughCircles searches every radius up to the frame's width, two to
// four times slower at 1920x1080, and the detector's time over
// HoughCircles' looks that much better than the same search would.
const (
	detectorMinRCm = 0.8
	detectorMaxRCm = 20
)

// houghFor returns HoughCircles' parameters for frames seen through cal:
// readmeHough, searching the detector's radii (detectorMinRCm to
// detectorMaxRCm) at the least and the greatest scale of the table over
// the frame. Without a calibration, readmeHough.
func houghFor(cal *calibration.Calibration) houghParams {
	p := readmeHough
	if cal == nil || cal.Lens.Width <= 0 || cal.Lens.Height <= 0 {
		return p
	}
	lo, hi := math.Inf(1), 0.0
	const n = 8
	for i := range n + 1 {
		for j := range n + 1 {
			u, v := float64(i)*float64(cal.Lens.Width-1)/n, float64(j)*float64(cal.Lens.Height-1)/n
			if s, ok := pixelsPerCm(cal, u, v); ok {
				lo, hi = math.Min(lo, s), math.Max(hi, s)
			}
		}
	}
	if hi == 0 {
		return p
	}
	p.minR = max(1, int(math.Floor(detectorMinRCm*lo)))
	p.maxR = int(math.Ceil(detectorMaxRCm * hi))
	return p
}

// pixelsPerCm is the length in pixels of a centimetre of table seen at
// pixel (u, v): the mean of a step along x and one along y.
func pixelsPerCm(cal *calibration.Calibration, u, v float64) (float64, bool) {
	p, err := cal.TableFromImage(u, v, 0)
	if err != nil {
		return 0, false
	}
	var sum float64
	for _, d := range []models.TablePoint{{X: p.X + 1, Y: p.Y}, {X: p.X, Y: p.Y + 1}} {
		q, err := cal.ImageFromTable(d, 0)
		if err != nil {
			return 0, false
		}
		sum += math.Hypot(q.U-u, q.V-v)
	}
	s := sum / 2
	return s, s > 0 && !math.IsInf(s, 0)
}

// houghCircles runs the bare OpenCV pipeline on a BGR (or grey) frame:
// grey, median blur 5, HoughCircles. It returns the circles in pixels
// and the time taken from the BGR frame.
func houghCircles(frame gocv.Mat, p houghParams) ([]vision.Circle, time.Duration) {
	gray := gocv.NewMat()
	defer gray.Close()
	blurred := gocv.NewMat()
	defer blurred.Close()
	circles := gocv.NewMat()
	defer circles.Close()
	start := time.Now()
	switch frame.Channels() {
	case 3:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRToGray)
	case 4:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRAToGray)
	default:
		frame.CopyTo(&gray)
	}
	gocv.MedianBlur(gray, &blurred, 5)
	gocv.HoughCirclesWithParams(blurred, &circles, houghGradientAlt, p.dp, p.minDist, p.param1, p.param2, p.minR, p.maxR)
	took := time.Since(start)
	out := make([]vision.Circle, 0, circles.Cols())
	for i := range circles.Cols() {
		v := circles.GetVecfAt(0, i)
		if len(v) >= 3 {
			out = append(out, vision.Circle{X: float64(v[0]), Y: float64(v[1]), R: float64(v[2])})
		}
	}
	return out, took
}

// houghTally gathers the baseline over the frames of one tier.
type houghTally struct {
	frames           int
	hough            time.Duration
	tp, fp, fn       int
	detector, stages time.Duration
	minR, maxR       int // the widest radius range searched, pixels
}

// houghBaseline times HoughCircles on the frames the detector saw, in
// the same run. The harness calls Progress before each scene; the frame
// the detector saw in the previous scene is measured then (outside the
// harness's timing) and dropped, so one frame at most is held.
type houghBaseline struct {
	cfg     bench.Config
	tiers   map[synth.Tier]*houghTally
	order   []synth.Tier
	cur     sceneID
	pending image.Image
	pendP   houghParams
	at      sceneID
	stages  time.Duration
	err     error
}

type sceneID struct {
	tier  synth.Tier
	scene int
}

func newHoughBaseline(cfg bench.Config) *houghBaseline {
	return &houghBaseline{cfg: cfg, tiers: map[synth.Tier]*houghTally{}}
}

// progress is chained into the harness's Progress.
func (h *houghBaseline) progress(t synth.Tier, k int) {
	h.flush()
	h.cur = sceneID{t, k}
}

// seen keeps the frame of the current scene with the detector's time and
// HoughCircles' parameters for it.
func (h *houghBaseline) seen(img image.Image, stages []bench.Stage, p houghParams) {
	h.pending, h.pendP, h.at = img, p, h.cur
	h.stages = 0
	for _, s := range stages {
		h.stages += s.Took
	}
}

// flush measures the pending frame.
func (h *houghBaseline) flush() {
	img := h.pending
	if img == nil {
		return
	}
	h.pending = nil
	sc, err := synth.Generate(h.cfg.Seed+uint64(h.at.scene), h.at.tier, h.cfg.SceneOptions())
	if err != nil {
		h.err = err
		return
	}
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		h.err = err
		return
	}
	defer m.Close()
	p := h.pendP
	circles, took := houghCircles(m, p)
	t := h.tiers[h.at.tier]
	if t == nil {
		t = &houghTally{minR: p.minR, maxR: p.maxR}
		h.tiers[h.at.tier] = t
		h.order = append(h.order, h.at.tier)
	}
	t.minR = min(t.minR, p.minR)
	if p.maxR <= 0 || t.maxR > 0 && p.maxR > t.maxR {
		t.maxR = p.maxR
	}
	t.frames++
	t.hough += took
	t.stages += h.stages
	tp := matchCentres(sc.Truth.Disks, circles)
	t.tp += tp
	t.fp += len(circles) - tp
	t.fn += len(sc.Truth.Disks) - tp
}

// matchCentres counts true disks matched one to one by a circle whose
// centre lies within half the disk's radius in the image: the harness's
// criterion and matching (bench.Match) for the detector, in pixels.
func matchCentres(truth []models.Disk, got []vision.Circle) int {
	return len(bench.Match(len(truth), len(got), func(i, j int) (float64, bool) {
		d := truth[i].Pixel
		if d == nil {
			return 0, false
		}
		dist := math.Hypot(got[j].X-d.PX, got[j].Y-d.PY)
		return dist, dist < 0.5*d.PR
	}))
}

// HoughReport is the baseline of each tier.
type HoughReport struct {
	Method string      `json:"method"`
	Tiers  []HoughTier `json:"tiers"`
}

// HoughTier compares the detector with HoughCircles on a tier's frames.
type HoughTier struct {
	Tier   synth.Tier `json:"tier"`
	Frames int        `json:"frames"`
	// HoughMS and DetectorMS are mean times per frame from the BGR frame
	// (the detector's is the sum of its stages).
	HoughMS    bench.Num `json:"hough_ms"`
	DetectorMS bench.Num `json:"detector_ms"`
	// Ratio is DetectorMS / HoughMS: how many times longer the detector
	// takes.
	Ratio bench.Num `json:"detector_over_hough"`
	// HoughF1 scores HoughCircles' circles against the true disks by the
	// harness's disk criterion (centre within half the radius), in
	// pixels.
	HoughF1 bench.Num `json:"hough_disk_f1"`
	// MinRadiusPx and MaxRadiusPx are the widest radius range searched
	// over the tier's frames: the detector's radii through each scene's
	// calibration (houghFor); 0: up to the frame's size.
	MinRadiusPx int `json:"hough_min_radius_px"`
	MaxRadiusPx int `json:"hough_max_radius_px"`
}

func (h *houghBaseline) report() *HoughReport {
	h.flush()
	rep := &HoughReport{Method: fmt.Sprintf("HoughCircles HOUGH_GRADIENT_ALT dp 1.5 minDist 10 p1 300 p2 0.8, median blur 5; radii %g to %g cm in pixels through each scene's calibration (the detector's)", detectorMinRCm, float64(detectorMaxRCm))}
	for _, tier := range h.order {
		t := h.tiers[tier]
		n := float64(t.frames)
		hms := float64(t.hough.Microseconds()) / 1000 / n
		dms := float64(t.stages.Microseconds()) / 1000 / n
		rep.Tiers = append(rep.Tiers, HoughTier{Tier: tier, Frames: t.frames, HoughMS: bench.Num(hms), DetectorMS: bench.Num(dms),
			Ratio: bench.Num(dms / hms), HoughF1: bench.Num(f1Score(t.tp, t.fp, t.fn)), MinRadiusPx: t.minR, MaxRadiusPx: t.maxR})
	}
	return rep
}

func f1Score(tp, fp, fn int) float64 {
	if tp == 0 {
		return 0
	}
	return 2 * float64(tp) / float64(2*tp+fp+fn)
}

// circleOf returns a disk's pixel circle.
func circleOf(d models.Disk) (vision.Circle, bool) {
	if d.Pixel == nil {
		return vision.Circle{}, false
	}
	return vision.Circle{X: d.Pixel.PX, Y: d.Pixel.PY, R: d.Pixel.PR}, true
}
