package bench

import (
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"tableref/calibration"
	"tableref/models"
	"tableref/vision/synth"
	"tableref/vision/track"
)

// TrackingConfig says what game to render and track. The zero value
// plays ten minutes of an easy table at 30 frames a second, 960x540.
type TrackingConfig struct {
	Seed    uint64
	Minutes float64
	Width   int
	Height  int
	FPS     int
	Tier    synth.Tier
	// SameFaces prints the same art on both faces of each disk.
	SameFaces bool
	// Detector reads the settled frames; required.
	Detector NewDetector
	// Pipeline tunes the tracker (its calibration is set by the run).
	Pipeline track.PipelineOptions
	// Progress, when set, is called now and then with the frame reached.
	Progress func(frame, of int)
	// observe, when set, sees each frame before the pipeline does (for
	// tests whose detector reads the ground truth).
	observe func(synth.Frame)
}

// TrackingReport holds the figures of a tracked game.
type TrackingReport struct {
	Seed    uint64     `json:"seed"`
	Tier    synth.Tier `json:"tier"`
	Width   int        `json:"width"`
	Height  int        `json:"height"`
	FPS     int        `json:"fps"`
	Frames  int        `json:"frames"`
	Minutes float64    `json:"minutes"`
	// Actions counts the game's actions by kind (move, volley, ...).
	Actions map[string]int `json:"actions"`
	Bumps   int            `json:"camera_bumps"`

	Rulings         int `json:"rulings"`
	UnsettledRuling int `json:"rulings_on_unsettled_table"`
	ExpectedRulings int `json:"rests_needing_a_ruling"`
	MissedRulings   int `json:"missed_rulings"`
	// MissedAfter counts the missed rulings by the action before the
	// rest.
	MissedAfter    map[string]int `json:"missed_rulings_after"`
	PhantomRulings int            `json:"phantom_rulings"`
	SettleP50      Num            `json:"frames_to_settle_p50"`
	SettleP95      Num            `json:"frames_to_settle_p95"`
	SettleMax      Num            `json:"frames_to_settle_max"`

	IdentitySwitches int `json:"identity_switches"`
	SwitchesPer1000  Num `json:"identity_switches_per_1000_frames"`
	WrongIdentities  int `json:"disk_rulings_with_wrong_identity"`
	DiskRulings      int `json:"disk_rulings"`
	MissedDisks      int `json:"missed_disks"`
	PhantomDisks     int `json:"phantom_disks"`
	KeptUnseen       int `json:"disks_kept_unseen"`
	Questions        int `json:"questions_asked"`
	QuestionsPer1000 Num `json:"questions_per_1000_frames"`
	Namings          int `json:"new_disks_named"`
	CentreP50MM      Num `json:"centre_error_p50_mm"`
	CentreP95MM      Num `json:"centre_error_p95_mm"`

	HandFrames      int `json:"hand_frames"`
	HandSeen        Num `json:"hand_recall"`
	FalseHandFrames int `json:"false_hand_frames_at_rest"`
	BumpsNoticed    int `json:"bumps_reanchored"`
	Recalibrations  int `json:"recalibrations_asked"`

	Reads       int `json:"detector_reads"`
	MSPerFrame  Num `json:"pipeline_ms_per_frame"`
	MSPerRead   Num `json:"ms_per_read"`
	RenderMS    Num `json:"render_ms_per_frame"`
	WallSeconds Num `json:"wall_seconds"`
}

// sameFrame reports whether cal puts the scene's first disk within a
// centimetre of where the ground truth has it.
func sameFrame(sc *synth.Scene, cal *calibration.Calibration) bool {
	if len(sc.Truth.Disks) == 0 {
		return true
	}
	d := sc.Truth.Disks[0]
	p, err := cal.TableFromImage(d.Pixel.PX, d.Pixel.PY, models.Centimetres(synth.Thickness*float64(d.Z+1)))
	return err == nil && math.Hypot(float64(p.X-d.X), float64(p.Y-d.Y)) < 1
}

// trackedDetector adapts a Detector to the tracker's interface and
// times it.
type trackedDetector struct {
	det  Detector
	took time.Duration
}

func (d *trackedDetector) Detect(img image.Image) (models.Layout, error) {
	t0 := time.Now()
	l, err := d.det.Detect(img)
	d.took += time.Since(t0)
	return l, err
}

// trackingRun is the state of a run.
type trackingRun struct {
	rep        TrackingReport
	game       *synth.Game
	pipe       *track.Pipeline
	restStart  int
	inRest     bool
	expected   bool // this rest needs a ruling
	ruled      bool // this rest has had one
	lastRuled  *models.Layout
	adopted    bool
	assignedID map[string]string // truth id -> tracker id at the last ruling
	settle     []float64
	centre     []float64
	handSeen   int
	lastAction string
}

// RunTracking renders a game, runs the tracking pipeline on every frame
// and scores it against the ground truth. The simulated player names the
// disks at the first ruling and each new disk when it first appears, and
// answers every question truthfully; switches are counted after that.
func RunTracking(cfg TrackingConfig) (TrackingReport, error) {
	if cfg.Detector == nil {
		return TrackingReport{}, errors.New("bench: tracking needs a detector")
	}
	game, err := synth.NewGame(cfg.Seed, synth.GameOptions{Tier: cfg.Tier, Width: cfg.Width, Height: cfg.Height, FPS: cfg.FPS, Minutes: cfg.Minutes, SameFaces: cfg.SameFaces})
	if err != nil {
		return TrackingReport{}, fmt.Errorf("bench: %w", err)
	}
	sc := game.Scene
	// The player's calibration from the board view; where the board's
	// corners were numbered from another corner (a frame turned round, as
	// valid as any but not the ground truth's), the true one.
	cal, err := calibratePlane(sc)
	if err != nil || !sameFrame(sc, cal) {
		if cal, err = sc.TrueCalibration(); err != nil {
			return TrackingReport{}, fmt.Errorf("bench: calibrating the game's camera: %w", err)
		}
	}
	det, err := cfg.Detector(cal)
	if err != nil {
		return TrackingReport{}, fmt.Errorf("bench: making the detector: %w", err)
	}
	if c, ok := det.(io.Closer); ok {
		defer c.Close()
	}
	td := &trackedDetector{det: det}
	opt := cfg.Pipeline
	opt.Tracker.Calibration = cal
	run := &trackingRun{pipe: track.NewPipeline(td, opt), assignedID: map[string]string{}, game: game}
	run.rep = TrackingReport{Seed: cfg.Seed, Tier: sc.Tier, Width: sc.Camera.Width, Height: sc.Camera.Height, FPS: game.FPS(), Actions: map[string]int{}, MissedAfter: map[string]int{}}
	start := time.Now()
	var pipeTime, renderTime time.Duration
	lastAction := ""
	for {
		t0 := time.Now()
		f, ok := game.Next()
		renderTime += time.Since(t0)
		if !ok {
			break
		}
		if f.Action != lastAction && f.Action != "" {
			run.rep.Actions[f.Action]++
		}
		lastAction = f.Action
		if cfg.observe != nil {
			cfg.observe(f)
		}
		t0 = time.Now()
		st, err := run.pipe.Step(f.Index, f.Image)
		pipeTime += time.Since(t0)
		if err != nil {
			return TrackingReport{}, err
		}
		run.observe(f, st)
		if cfg.Progress != nil && f.Index%300 == 0 {
			cfg.Progress(f.Index, game.Len())
		}
	}
	run.finish(pipeTime, renderTime, td.took, time.Since(start))
	return run.rep, nil
}

// observe scores one frame.
func (r *trackingRun) observe(f synth.Frame, st track.Step) {
	r.rep.Frames++
	r.rep.Bumps = f.Bumps
	if st.Read {
		r.rep.Reads++
	}
	if f.Hand {
		r.rep.HandFrames++
		if st.Motion.Hand != nil {
			r.handSeen++
		}
	} else if !f.Moving && st.Motion.Hand != nil {
		r.rep.FalseHandFrames++
	}
	for _, n := range st.Notices {
		if n.Kind == "bump" {
			r.rep.BumpsNoticed++
		}
	}
	switch {
	case f.Moving:
		r.endRest()
		r.lastAction = f.Action
	case !r.inRest:
		r.inRest, r.restStart, r.ruled = true, f.Index, false
		r.expected = r.lastRuled == nil || !sameTruth(*r.lastRuled, f.Truth)
	}
	if st.Ruling != nil {
		r.ruling(f, st.Ruling)
	}
	r.answer(f, st.Questions)
}

// endRest closes a rest: one that needed a ruling and had none is a
// missed ruling.
func (r *trackingRun) endRest() {
	if r.inRest && r.expected {
		r.rep.ExpectedRulings++
		if !r.ruled {
			r.rep.MissedRulings++
			r.rep.MissedAfter[r.lastAction]++
		}
	}
	r.inRest = false
}

// ruling scores a ruling.
func (r *trackingRun) ruling(f synth.Frame, ru *track.Ruling) {
	r.rep.Rulings++
	switch {
	case f.Moving:
		r.rep.UnsettledRuling++
	case r.expected && !r.ruled:
		r.settle = append(r.settle, float64(f.Index-r.restStart))
	default:
		r.rep.PhantomRulings++
	}
	r.ruled = true
	truth := f.Truth
	r.lastRuled = &truth
	if !r.adopted {
		nm := named(truth, ru.Layout)
		if _, err := r.pipe.Tracker().Adopt(nm); err == nil {
			r.adopted = true
			for _, d := range nm.Disks {
				r.assignedID[d.ID] = d.ID
			}
		}
		return
	}
	r.score(truth, ru.Layout)
	r.nameNewDisks(truth, ru.Layout)
}

// named returns the truth disks that the tracked layout holds near
// their place (the player names what the tracker sees).
func named(truth, tracked models.Layout) models.Layout {
	out := models.Layout{Version: truth.Version}
	for _, d := range truth.Disks {
		if j := nearestDisk(tracked, d); j >= 0 {
			out.Disks = append(out.Disks, d)
		}
	}
	return out
}

// nearestDisk returns the index of the disk of l of d's size nearest d's
// centre within 0.6 of its radius, or -1.
func nearestDisk(l models.Layout, d models.Disk) int {
	best, bd := -1, 0.6*float64(d.R)
	for j, o := range l.Disks {
		if math.Abs(float64(o.R-d.R)) > 0.15*float64(d.R) {
			continue
		}
		if e := math.Hypot(float64(o.X-d.X), float64(o.Y-d.Y)); e < bd {
			best, bd = j, e
		}
	}
	return best
}

func seen(d models.Disk) bool {
	raw, ok := d.Extra["tracking"]
	return !ok || !strings.Contains(string(raw), `"seen":false`)
}

// score compares a ruling's identities and positions with the truth.
func (r *trackingRun) score(truth, tracked models.Layout) {
	used := make([]bool, len(tracked.Disks))
	for _, d := range truth.Disks {
		j := nearestDisk(tracked, d)
		if j < 0 || used[j] {
			r.rep.MissedDisks++
			continue
		}
		used[j] = true
		r.rep.DiskRulings++
		got := tracked.Disks[j]
		if _, named := r.assignedID[d.ID]; !named && strings.HasPrefix(got.ID, "n") {
			continue // a new disk the player has not named yet
		}
		if got.ID != d.ID {
			r.rep.WrongIdentities++
		}
		if prev, ok := r.assignedID[d.ID]; ok && prev != got.ID {
			r.rep.IdentitySwitches++
		}
		r.assignedID[d.ID] = got.ID
		r.centre = append(r.centre, 10*math.Hypot(float64(got.X-d.X), float64(got.Y-d.Y)))
	}
	for j, d := range tracked.Disks {
		if used[j] {
			continue
		}
		if seen(d) {
			r.rep.PhantomDisks++
		} else {
			r.rep.KeptUnseen++
		}
	}
}

// nameNewDisks has the player name the new disks the tracker shows with
// an id of its own.
func (r *trackingRun) nameNewDisks(truth, tracked models.Layout) {
	have := tracked.DiskIndex()
	var fresh models.Layout
	for _, d := range truth.Disks {
		if _, ok := have[d.ID]; ok {
			continue
		}
		if j := nearestDisk(tracked, d); j >= 0 && strings.HasPrefix(tracked.Disks[j].ID, "n") {
			fresh.Disks = append(fresh.Disks, d)
		}
	}
	if len(fresh.Disks) == 0 {
		return
	}
	if _, err := r.pipe.Tracker().Adopt(fresh); err == nil {
		r.rep.Namings += len(fresh.Disks)
		for _, d := range fresh.Disks {
			r.assignedID[d.ID] = d.ID
		}
	}
}

// answer answers the tracker's questions as a player looking at the
// table would.
func (r *trackingRun) answer(f synth.Frame, qs []track.Question) {
	tr := r.pipe.Tracker()
	for _, q := range qs {
		open := slices.ContainsFunc(tr.Questions(), func(o track.Question) bool { return o.ID == q.ID })
		if !open {
			continue
		}
		r.rep.Questions++
		ti := f.Truth.DiskIndex()
		switch q.Kind {
		case "gone":
			_, still := ti[q.Disks[0]]
			tr.Answer(q, !still, "")
		case "swap":
			tr.Answer(q, r.swapped(f.Truth, q.Disks), "")
		case "identify":
			who := r.whoIs(f.Truth, q.Disks[0])
			tr.Answer(q, slices.Contains(q.Disks[1:], who), who)
		case "recalibrate":
			// The player lays the board down again: a new calibration.
			r.rep.Recalibrations++
			if cal, err := calibratePlane(r.game.Scene); err == nil {
				tr.Recalibrate(cal)
			}
		default:
			tr.Answer(q, true, "")
		}
	}
}

// whoIs returns the truth id of the disk lying where the tracker has
// disk id, or "".
func (r *trackingRun) whoIs(truth models.Layout, id string) string {
	d, ok := r.pipe.Tracker().Disk(id)
	if !ok {
		return ""
	}
	if j := nearestDisk(truth, d); j >= 0 {
		return truth.Disks[j].ID
	}
	return ""
}

// swapped reports whether the truth has each of the two disks where the
// tracker has the other.
func (r *trackingRun) swapped(truth models.Layout, ids []string) bool {
	return len(ids) == 2 && r.whoIs(truth, ids[0]) == ids[1] && r.whoIs(truth, ids[1]) == ids[0]
}

// sameTruth reports whether two truths hold the same disks at the same
// places and the same tokens.
func sameTruth(a, b models.Layout) bool {
	if len(a.Disks) != len(b.Disks) || len(a.Tokens) != len(b.Tokens) {
		return false
	}
	ib := b.DiskIndex()
	for _, d := range a.Disks {
		j, ok := ib[d.ID]
		if !ok || math.Hypot(float64(d.X-b.Disks[j].X), float64(d.Y-b.Disks[j].Y)) > 0.05 {
			return false
		}
	}
	it := map[string]models.Token{}
	for _, t := range b.Tokens {
		it[t.ID] = t
	}
	for _, t := range a.Tokens {
		u, ok := it[t.ID]
		if !ok || math.Hypot(float64(t.X-u.X), float64(t.Y-u.Y)) > 0.05 {
			return false
		}
	}
	return true
}

func (r *trackingRun) finish(pipe, render, detect, wall time.Duration) {
	r.endRest()
	rep := &r.rep
	rep.Minutes = float64(rep.Frames) / float64(max(1, rep.FPS)) / 60
	k := 1000 / float64(max(1, rep.Frames))
	rep.SwitchesPer1000 = Num(float64(rep.IdentitySwitches) * k)
	rep.QuestionsPer1000 = Num(float64(rep.Questions) * k)
	rep.SettleP50 = Num(synth.Percentile(r.settle, 50))
	rep.SettleP95 = Num(synth.Percentile(r.settle, 95))
	rep.SettleMax = Num(synth.Percentile(r.settle, 100))
	rep.CentreP50MM = Num(synth.Percentile(r.centre, 50))
	rep.CentreP95MM = Num(synth.Percentile(r.centre, 95))
	rep.HandSeen = Num(math.NaN())
	if rep.HandFrames > 0 {
		rep.HandSeen = Num(float64(r.handSeen) / float64(rep.HandFrames))
	}
	rep.MSPerFrame = Num(float64(pipe.Microseconds()) / 1000 / float64(max(1, rep.Frames)))
	rep.MSPerRead = Num(math.NaN())
	if rep.Reads > 0 {
		rep.MSPerRead = Num(float64(detect.Microseconds()) / 1000 / float64(rep.Reads))
	}
	rep.RenderMS = Num(float64(render.Microseconds()) / 1000 / float64(max(1, rep.Frames)))
	rep.WallSeconds = Num(wall.Seconds())
}
