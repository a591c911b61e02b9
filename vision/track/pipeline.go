package track

import (
	"fmt"
	"image"
	"math"

	"tableref/models"
)

// Detector finds the disks and tokens of a frame (vision.Detector through
// a small adapter, or a test double).
type Detector interface {
	Detect(img image.Image) (models.Layout, error)
}

// PipelineOptions configure a Pipeline; the zero value works.
type PipelineOptions struct {
	Gate    GateOptions
	Differ  DifferOptions
	Tracker Options
	// Tolerance is how far a disk or token may lie from where the last
	// ruling had it and the table still count as unchanged (default 0.5
	// cm).
	Tolerance models.Centimetres
}

// Ruling is a settled, identified table that differs from the previous
// ruling.
type Ruling struct {
	Frame  int
	Layout models.Layout
	// Events since the previous ruling, intermediate readings included
	// (a fast second move is not lost).
	Events []Event
	// Questions asked since the previous ruling, intermediate readings
	// included, that are still open.
	Questions []Question
	// Readings is how many readings (buffered ones and this one) went
	// into it.
	Readings int
}

// Step is what the pipeline made of one frame.
type Step struct {
	Frame  int
	Phase  Phase
	Motion Motion
	// Read: the detector ran on this frame.
	Read bool
	// Ruling is set when the frame settled a changed table.
	Ruling *Ruling
	// Notices are events worth telling at once (a bumped camera) and
	// questions, even when no ruling is due.
	Notices   []Event
	Questions []Question
}

// Pipeline runs the differ, the gate, the detector and the tracker on
// each frame. Not safe for concurrent use.
type Pipeline struct {
	opt     PipelineOptions
	det     Detector
	differ  Differ
	gate    Gate
	tracker *Tracker
	events  []Event
	asked   []Question // questions asked since the last ruling
	reads   int
	last    *models.Layout
	looked  bool // the table was read since the last motion
	held    bool // the previous frame had a Held region
	// rebased: the reference was set anew since the last ruling (a bump,
	// a view to recalibrate), so it is no longer the last ruled table.
	rebased bool
}

// NewPipeline returns a pipeline reading frames with det.
func NewPipeline(det Detector, opt PipelineOptions) *Pipeline {
	if opt.Tolerance <= 0 {
		opt.Tolerance = 0.5
	}
	p := &Pipeline{opt: opt, det: det, tracker: NewTracker(opt.Tracker)}
	p.differ.Options = opt.Differ
	p.gate.Options = opt.Gate
	return p
}

// Tracker returns the pipeline's tracker (to adopt names, kill disks and
// answer questions).
func (p *Pipeline) Tracker() *Tracker { return p.tracker }

// Step takes frame number n. It fails when the frame is empty (no pixel:
// nothing to compare or read) and when the detector fails (a ruling due
// at that frame is then made at the next still frame).
func (p *Pipeline) Step(n int, img image.Image) (Step, error) {
	if b := img.Bounds(); b.Empty() {
		return Step{Frame: n}, fmt.Errorf("frame %d: an empty image (%dx%d pixels)", n, b.Dx(), b.Dy())
	}
	m := p.differ.Observe(img)
	if m.Held != nil && !p.held {
		// A hand kept still too long now counts as part of the table: the
		// table is still from this frame on, not from when the hand
		// stopped, which would rule at once with the hand there.
		p.gate.Reset()
	}
	p.held = m.Held != nil
	ph := p.gate.Observe(m.Moving, m.Hand != nil)
	st := Step{Frame: n, Phase: ph, Motion: m}
	if m.Moving {
		p.looked = false
	}
	if !ph.Reads() {
		return st, nil
	}
	if ph == Settled && p.last != nil && !p.rebased && p.differ.AtReference() {
		// The table looks as it did when it last settled: nothing to read.
		p.differ.SetReference()
		return st, nil
	}
	l, err := p.det.Detect(img)
	if err != nil {
		if ph == Settled {
			p.gate.Retry() // the rest is still to be ruled on
		}
		return st, fmt.Errorf("frame %d: %w", n, err)
	}
	st.Read = true
	p.reads++
	hand := m.Hand
	if hand == nil {
		hand = m.Held
	}
	sigs := Measure(img, l, hand)
	up := p.tracker.Observe(Observation{Frame: n, Layout: l, Signatures: sigs, Hand: hand, Settled: ph == Settled, Sole: !p.looked})
	p.looked = true
	p.events = append(p.events, up.Events...)
	p.asked = append(p.asked, up.Questions...)
	for _, e := range up.Events {
		if e.Kind == "bump" {
			// The view moved: the frame is the new reference, so that the
			// shifted table is not taken for a hand.
			st.Notices = append(st.Notices, e)
			p.differ.SetReference()
			p.rebased = true
		}
	}
	st.Questions = up.Questions
	for _, q := range up.Questions {
		if q.Kind == "recalibrate" {
			// The view changed beyond re-anchoring: what is seen now is
			// the reference until the player recalibrates.
			p.differ.SetReference()
			p.rebased = true
		}
	}
	if ph != Settled {
		return st, nil
	}
	p.differ.SetReference()
	// The view changed since the last ruling (it is not at the reference):
	// rule, even when the detector reads the same table (a token it
	// missed); but a view changed by a moved camera alone is no new table.
	// Then only the disks are compared: the detector reads tokens less
	// surely than disks, and one more or less in the new view is no move.
	qs := p.openQuestions()
	if p.last != nil && p.viewMoved() && sameDisks(*p.last, up.Layout, p.opt.Tolerance) && len(qs) == 0 {
		p.events, p.asked, p.reads, p.rebased = nil, nil, 0, false
		return st, nil
	}
	last := up.Layout
	p.last = &last
	st.Ruling = &Ruling{Frame: n, Layout: up.Layout, Events: p.events, Questions: qs, Readings: p.reads}
	p.events, p.asked, p.reads, p.rebased = nil, nil, 0, false
	return st, nil
}

// openQuestions returns the questions asked since the last ruling that
// are still open, oldest first, each as the tracker has it now (an Adopt
// may have renamed its disks).
func (p *Pipeline) openQuestions() []Question {
	open := map[int]Question{}
	for _, q := range p.tracker.Questions() {
		open[q.ID] = q
	}
	var qs []Question
	for _, q := range p.asked {
		if cur, ok := open[q.ID]; ok {
			qs = append(qs, cur)
			delete(open, q.ID)
		}
	}
	return qs
}

// viewMoved reports whether a bump was noticed since the last ruling.
func (p *Pipeline) viewMoved() bool {
	for _, e := range p.events {
		if e.Kind == "bump" {
			return true
		}
	}
	return false
}

// sameDisks reports whether two tracked tables hold the same disks (by
// id), each within tol of where it was.
func sameDisks(a, b models.Layout, tol models.Centimetres) bool {
	if len(a.Disks) != len(b.Disks) {
		return false
	}
	ib := b.DiskIndex()
	for _, d := range a.Disks {
		j, ok := ib[d.ID]
		if !ok || near(d.Centre(), b.Disks[j].Centre()) > float64(tol) {
			return false
		}
	}
	return true
}

func near(a, b models.TablePoint) float64 { return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y)) }
