package track

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"tableref/calibration"
	"tableref/models"
)

// Options configure a Tracker; the zero value works (no calibration:
// bumps are re-anchored in pixels only).
type Options struct {
	// Calibration is the one the detector maps pixels to the table with.
	// After a bump the tracker maps the new pixels back to the view it was
	// made for and through it again.
	Calibration *calibration.Calibration
	// Flips is the movement, in flips, of a disk without a "movement"
	// stat (default 5). A flip moves a disk one diameter.
	Flips int
	// BonusFlips are added to every disk's movement (spells such as
	// Vitesse give +3) (default 0).
	BonusFlips int
	// Slack is added to every move's reach, for a flip not quite
	// straight and for measurement error (default 1.5 cm).
	Slack models.Centimetres
	// MissingRulings is how many settled readings in a row a disk may go
	// unseen (with no hand over it) before it counts as taken off the
	// table (default 3).
	MissingRulings int
	// Margin is how much worse (in diameters of travel) the swapped
	// reading of two similar disks must be for the tracker to decide
	// alone rather than ask (default 0.4).
	Margin float64
	// Appearance weighs the signature distance against travel in
	// diameters (default 3).
	Appearance float64
	// Thickness is a disk's thickness (default 0.2 cm), for the height of
	// a stacked disk's face when re-anchoring.
	Thickness models.Centimetres
}

func (o Options) withDefaults() Options {
	if o.Flips <= 0 {
		o.Flips = 5
	}
	if o.Slack <= 0 {
		o.Slack = 1.5
	}
	if o.MissingRulings <= 0 {
		o.MissingRulings = 3
	}
	if o.Margin <= 0 {
		o.Margin = 0.4
	}
	if o.Appearance <= 0 {
		o.Appearance = 3
	}
	if o.Thickness <= 0 {
		o.Thickness = 0.2
	}
	return o
}

// Observation is one reading of the table.
type Observation struct {
	Frame int
	// Layout is what the detector found (its ids are ignored).
	Layout models.Layout
	// Signatures, parallel to Layout.Disks, describe each disk's face;
	// nil when not measured.
	Signatures []Signature
	// Hand is the region under a hand (nil: none): detections there are
	// ignored and disks there keep their last state.
	Hand *Mask
	// Settled marks a reading of a settled table (a ruling), as opposed to
	// an intermediate one.
	Settled bool
	// Sole marks a settled reading that no other reading of the same rest
	// came before (a settle gate of a single frame). A new disk is
	// otherwise confirmed by a second look; here the next look would come
	// only with the next rest, so a new disk is confirmed at once.
	Sole bool
}

// Event is something the tracker saw happen.
type Event struct {
	Frame int    `json:"frame"`
	Kind  string `json:"kind"` // moved, new, unseen, removed, seen-again, bump
	ID    string `json:"id,omitempty"`
	Name  string `json:"name,omitempty"`
	// From and To are table points (cm) for a move; Flips the flips it
	// takes at least.
	From  *Point `json:"from,omitempty"`
	To    *Point `json:"to,omitempty"`
	Flips int    `json:"flips,omitempty"`
	Text  string `json:"text"`
}

// Point is a table point in cm, written {"x": .., "y": ..} rounded to a
// hundredth.
type Point struct {
	X models.Centimetres `json:"x"`
	Y models.Centimetres `json:"y"`
}

func point(p models.TablePoint) *Point {
	r := func(v models.Centimetres) models.Centimetres {
		return models.Centimetres(math.Round(float64(v)*100) / 100)
	}
	return &Point{X: r(p.X), Y: r(p.Y)}
}

// Question is an ambiguity the tracker will not settle by guessing.
type Question struct {
	ID   int    `json:"id"`
	Kind string `json:"kind"` // swap, identify, recalibrate
	// Disks are the ids concerned: for swap, the two disks whose
	// identities may be exchanged; for identify, the new disk then the
	// unseen disks it may be; for gone, the disk no longer seen.
	Disks []string `json:"disks,omitempty"`
	Text  string   `json:"text"`
}

// Update is the tracker's answer to an observation.
type Update struct {
	// Layout is the table with tracked identities: every disk still on
	// the table (one that was not seen this time, under a hand or missed,
	// keeps its last state and carries "tracking": {"seen": false}).
	Layout    models.Layout
	Events    []Event
	Questions []Question
	// Warp maps the current camera's pixels to the calibrated view's;
	// Identity until the camera is bumped.
	Warp Homography
}

// track is one disk followed through time.
type track struct {
	disk models.Disk // identity, state and last seen position
	// ref is where the disk was seen in the image at the last settled
	// reading: the reference a bumped camera is detected against.
	ref     *models.ImageCircle
	anchor  models.TablePoint
	faces   []Signature
	seen    int // readings it was found in; under 2, it is tentative
	unseen  int // settled readings in a row without it
	gone    bool
	goneAt  int // the reading it was removed at
	killed  bool
	visible bool // seen in the latest observation
	named   bool // its identity came from a roster (Adopt)
}

// Tracker gives the disks of successive observations stable identities.
// Not safe for concurrent use.
type Tracker struct {
	opt       Options
	tracks    []*track
	nextID    int
	nextQ     int
	warp      Homography
	questions map[string]Question // open, by key
	rng       *rand.Rand
	started   bool
	prev      []models.Disk // the detections of the previous reading
	remap     bool          // the calibration is not the detector's
	readings  int           // observations taken
	// pending are the roster disks Adopt could not place yet; reserved
	// holds every id a roster gave, which no new disk is given.
	pending  []models.Disk
	reserved map[string]bool
}

// Recalibrate replaces the calibration after the camera moved (a new
// board view): from now on the tracker maps the detector's pixels through
// cal instead of the detector's own calibration, and the re-anchoring
// starts afresh. The disks keep their identities and table positions.
func (t *Tracker) Recalibrate(cal *calibration.Calibration) {
	t.opt.Calibration = cal
	t.warp = Identity
	t.remap = true
	for _, tr := range t.tracks {
		tr.ref = nil // the next settled reading is the new reference
	}
	for k, q := range t.questions {
		if q.Kind == "recalibrate" {
			delete(t.questions, k)
		}
	}
}

// NewTracker returns an empty tracker.
func NewTracker(opt Options) *Tracker {
	return &Tracker{opt: opt.withDefaults(), warp: Identity, questions: map[string]Question{}, reserved: map[string]bool{},
		rng: rand.New(rand.NewPCG(9, 9))}
}

// Warp returns the current re-anchoring homography (Identity before any
// bump).
func (t *Tracker) Warp() Homography { return t.warp }

// live returns the tracks that may still be matched.
func (t *Tracker) live() []*track {
	var out []*track
	for _, tr := range t.tracks {
		if !tr.killed && !tr.gone {
			out = append(out, tr)
		}
	}
	return out
}

// reach is how far (cm) a disk may have gone from its settled position.
func (t *Tracker) reach(d models.Disk) float64 {
	flips := t.opt.Flips
	if m, ok := d.Stat("movement"); ok {
		flips = m
	}
	flips += t.opt.BonusFlips
	return float64(flips)*2*float64(d.R) + float64(t.opt.Slack)
}

// Observe takes the next reading and returns the tracked table.
func (t *Tracker) Observe(obs Observation) Update {
	up := Update{}
	t.readings++
	dets, sigs := t.usable(obs)
	if t.started {
		if ev, q := t.checkBump(obs, dets); ev != nil || q != nil {
			if ev != nil {
				up.Events = append(up.Events, *ev)
			}
			if q != nil {
				up.Questions = append(up.Questions, *q)
			}
		}
	}
	dets = t.reanchor(dets)
	// Every live disk may be matched, even one whose last place is under
	// the hand (it may have been flipped out from under it); but one under
	// the hand that is not found keeps its last state.
	visibleTracks := t.live()
	for _, tr := range visibleTracks {
		tr.visible = false
	}
	cost := t.costs(visibleTracks, dets, sigs)
	miss := make([]float64, len(visibleTracks))
	spare := make([]float64, len(dets))
	for i := range miss {
		miss[i] = 50
	}
	for j := range spare {
		spare[j] = 50
	}
	match := Assign(cost, miss, spare)
	used := make([]bool, len(dets))
	// owner is the track each detection (by the detector's id) became;
	// confirmed are the disks that enter the table with this reading.
	owner := map[string]*track{}
	var confirmed []*track
	for i, j := range match {
		if j < 0 {
			continue
		}
		tr := visibleTracks[i]
		used[j], owner[dets[j].ID] = true, tr
		tentative := tr.seen < 2
		up.Events = append(up.Events, t.follow(tr, dets[j], sigs[j], obs)...)
		if tentative && tr.seen >= 2 {
			confirmed = append(confirmed, tr)
		}
	}
	up.Questions = append(up.Questions, t.ambiguities(visibleTracks, match, cost)...)
	for i, j := range match {
		if p := visibleTracks[i].disk.Pixel; j < 0 && !(p != nil && obs.Hand.Covers(p.PX, p.PY, p.PR)) {
			ev, q := t.lose(visibleTracks[i], obs)
			up.Events = append(up.Events, ev...)
			up.Questions = append(up.Questions, q...)
		}
	}
	for j, d := range dets {
		// New disks are born of settled readings only: in the middle of a
		// move, an unclaimed disk is most likely one in flight.
		if !used[j] && (obs.Settled || !t.started) {
			tr, now, ev := t.birth(d, sigs[j], obs)
			up.Events = append(up.Events, ev...)
			owner[d.ID] = tr
			if now {
				confirmed = append(confirmed, tr)
			}
		}
	}
	// A new disk is told of (and asked about) once it is confirmed, so
	// that every "new" event names a disk of the layout returned with it.
	for _, tr := range confirmed {
		ev, q := t.confirm(tr, obs)
		up.Events = append(up.Events, ev...)
		up.Questions = append(up.Questions, q...)
	}
	t.started = true
	t.prev = dets
	up.Layout = t.layout(obs.Layout, owner)
	t.prune()
	up.Warp = t.warp
	return up
}

// usable returns the detections not under the hand, with their
// signatures (zero where none were measured).
func (t *Tracker) usable(obs Observation) ([]models.Disk, []Signature) {
	var dets []models.Disk
	var sigs []Signature
	for i, d := range obs.Layout.Disks {
		if p := d.Pixel; p != nil && obs.Hand.At(p.PX, p.PY) {
			continue
		}
		dets = append(dets, d)
		if i < len(obs.Signatures) {
			sigs = append(sigs, obs.Signatures[i])
		} else {
			sigs = append(sigs, Signature{})
		}
	}
	return dets, sigs
}

// reanchor maps the detections' pixels through the warp and back to the
// table, when the camera was bumped.
func (t *Tracker) reanchor(dets []models.Disk) []models.Disk {
	if t.warp == Identity && !t.remap {
		return dets
	}
	out := make([]models.Disk, len(dets))
	for i, d := range dets {
		out[i] = d
		if d.Pixel == nil {
			continue
		}
		u, v := t.warp.Apply(d.Pixel.PX, d.Pixel.PY)
		if t.opt.Calibration == nil {
			out[i].X, out[i].Y = models.Centimetres(u), models.Centimetres(v)
			continue
		}
		h := t.opt.Thickness * models.Centimetres(d.Z+1)
		if p, err := t.opt.Calibration.TableFromImage(u, v, h); err == nil {
			out[i].X, out[i].Y = p.X, p.Y
		}
	}
	return out
}

// sizeMatch reports whether two radii may belong to the same disk: the
// same size, or the next size of the catalogue (44.5 and 50.8 mm differ
// by 12 %), which a detector may snap a disk to when its outline is
// partly hidden.
func sizeMatch(a, b models.Centimetres) bool {
	return sizeGap(a, b) <= 0.17
}

// sizeGap is the relative difference of two radii.
func sizeGap(a, b models.Centimetres) float64 {
	return math.Abs(float64(a-b)) / math.Max(float64(max(a, b)), 1e-9)
}

// costs builds the cost of reading each detection as each track: travel
// in diameters from where it was, plus appearance; forbidden where the
// size differs or the move is beyond the disk's flips.
func (t *Tracker) costs(trs []*track, dets []models.Disk, sigs []Signature) [][]float64 {
	cost := make([][]float64, len(trs))
	for i, tr := range trs {
		cost[i] = make([]float64, len(dets))
		for j, d := range dets {
			cost[i][j] = t.cost(tr, d, sigs[j])
		}
	}
	return cost
}

func (t *Tracker) cost(tr *track, d models.Disk, sig Signature) float64 {
	if !sizeMatch(tr.disk.R, d.R) {
		return forbidden
	}
	if dist(tr.anchor, d.Centre()) > t.reach(tr.disk) {
		return forbidden
	}
	c := dist(tr.disk.Centre(), d.Centre())/(2*float64(tr.disk.R)) + 5*sizeGap(tr.disk.R, d.R)
	if a, ok := t.appearance(tr, sig); ok {
		c += t.opt.Appearance * a
	}
	if a, b := rimOf(tr.disk), rimOf(d); a != "" && b != "" && a != "unknown" && b != "unknown" && a != b {
		c += 0.5
	}
	return c
}

// appearance is the distance of a view to the nearest known face of the
// track. Until both faces are known, a view unlike the one face seen may
// be the other face, so the distance counts for little.
func (t *Tracker) appearance(tr *track, sig Signature) (float64, bool) {
	if !sig.Valid() || len(tr.faces) == 0 {
		return 0, false
	}
	best := math.Inf(1)
	for _, f := range tr.faces {
		best = math.Min(best, f.Distance(sig))
	}
	if len(tr.faces) < 2 {
		best = math.Min(best, 0.15)
	}
	return best, true
}

// rimOf is the finest name of a disk's rim colour there is: its colour
// (a gold rim is not a purple one, though both are of class unknown),
// else its class.
func rimOf(d models.Disk) string {
	if d.RimColour != "" {
		return d.RimColour
	}
	return d.Rim
}

func dist(a, b models.TablePoint) float64 {
	return math.Hypot(float64(a.X-b.X), float64(a.Y-b.Y))
}

// follow updates a track with its detection.
func (t *Tracker) follow(tr *track, d models.Disk, sig Signature, obs Observation) []Event {
	var evs []Event
	from, tentative := tr.anchor, tr.seen < 2
	tr.disk.X, tr.disk.Y, tr.disk.Z, tr.disk.Pixel = d.X, d.Y, d.Z, d.Pixel
	if rimOf(tr.disk) == "" || rimOf(tr.disk) == "unknown" {
		tr.disk.Rim, tr.disk.RimColour = d.Rim, d.RimColour
	}
	tr.learn(sig)
	tr.seen++
	tr.visible = true
	if obs.Settled {
		if tr.unseen > 0 {
			delete(t.questions, questionKey("gone", []string{tr.disk.ID})) // seen again: no longer a question
		}
		tr.unseen = 0
		// A tentative disk was never on the table: it does not move.
		if moved := dist(from, d.Centre()); !tentative && moved > 0.3*float64(d.R)+0.3 {
			flips := int(math.Ceil(moved/(2*float64(d.R)) - 0.15))
			evs = append(evs, Event{Frame: obs.Frame, Kind: "moved", ID: tr.disk.ID, Name: tr.disk.Name, From: point(from), To: point(d.Centre()), Flips: max(1, flips),
				Text: fmt.Sprintf("%s moved %.1f cm (%d flip(s))", label(tr.disk), moved, max(1, flips))})
		}
		tr.anchor = d.Centre()
		tr.ref = d.Pixel
	}
	return evs
}

// onTable reports whether the track is a disk of the tracked layout:
// confirmed, neither removed nor killed.
func (tr *track) onTable() bool { return !tr.killed && !tr.gone && tr.seen >= 2 }

// learn adds a view to the track's faces: near a known face it refines
// it; unlike the one known face it becomes the other face.
func (tr *track) learn(sig Signature) {
	if !sig.Valid() {
		return
	}
	best, bi := math.Inf(1), -1
	for i, f := range tr.faces {
		if d := f.Distance(sig); d < best {
			best, bi = d, i
		}
	}
	switch {
	case bi < 0 || (best > 0.3 && len(tr.faces) < 2):
		tr.faces = append(tr.faces, sig)
	case best < 0.5:
		tr.faces[bi] = tr.faces[bi].blend(sig, 0.2)
	}
}

// lose handles a visible track that was not found.
func (t *Tracker) lose(tr *track, obs Observation) ([]Event, []Question) {
	if !obs.Settled || tr.seen < 2 {
		if tr.seen < 2 && obs.Settled {
			tr.gone = true // a tentative disk never confirmed: prune forgets it
		}
		return nil, nil
	}
	tr.unseen++
	if tr.unseen < t.opt.MissingRulings {
		if tr.unseen == 1 {
			q := t.ask("gone", []string{tr.disk.ID}, label(tr.disk)+" is no longer seen: was it taken off the table?")
			return []Event{{Frame: obs.Frame, Kind: "unseen", ID: tr.disk.ID, Name: tr.disk.Name, Text: label(tr.disk) + " is not seen; keeping its last position"}}, []Question{q}
		}
		return nil, nil
	}
	tr.gone, tr.goneAt = true, t.readings
	return []Event{{Frame: obs.Frame, Kind: "removed", ID: tr.disk.ID, Name: tr.disk.Name,
		Text: fmt.Sprintf("%s has not been seen in %d settled readings: taken off the table", label(tr.disk), tr.unseen)}}, nil
}

// birth starts a track for a detection nobody claimed. A disk that was
// taken off the table as unseen may come back only at its very place (the
// detector had missed it); a killed disk never does. A new disk is
// tentative until a second reading confirms it; birth reports whether it
// is confirmed at once: on the first table, when the reading before saw it
// already, or when no other reading of this rest will come (Sole).
func (t *Tracker) birth(d models.Disk, sig Signature, obs Observation) (*track, bool, []Event) {
	for _, tr := range t.tracks {
		if tr.gone && !tr.killed && tr.seen >= 2 && sizeMatch(tr.disk.R, d.R) && dist(tr.disk.Centre(), d.Centre()) < 0.3*float64(d.R) {
			tr.gone, tr.unseen, tr.visible = false, 0, true
			tr.disk.Pixel, tr.ref, tr.disk.Z = d.Pixel, d.Pixel, d.Z
			tr.seen++
			// It was on the table all along: "was it taken off?" is answered.
			delete(t.questions, questionKey("gone", []string{tr.disk.ID}))
			return tr, false, []Event{{Frame: obs.Frame, Kind: "seen-again", ID: tr.disk.ID, Name: tr.disk.Name, Text: label(tr.disk) + " is seen again where it was"}}
		}
	}
	nd := models.Disk{ID: t.freshID(obs.Layout.Tokens), Kind: d.Kind, Rim: d.Rim, RimColour: d.RimColour, X: d.X, Y: d.Y, R: d.R, Z: d.Z, Pixel: d.Pixel}
	tr := &track{disk: nd, anchor: d.Centre(), ref: d.Pixel, seen: 1, visible: true}
	tr.learn(sig)
	t.tracks = append(t.tracks, tr)
	if !t.started || t.sawBefore(d) || (obs.Settled && obs.Sole) {
		tr.seen = 2
		return tr, true, nil
	}
	return tr, false, nil
}

// confirm puts a confirmed disk on the table: it takes the identity of a
// waiting roster disk whose place it lies on, and, past the first table,
// it is told of as new. A new disk the size of one unseen is asked about.
func (t *Tracker) confirm(tr *track, obs Observation) ([]Event, []Question) {
	t.claimPending(tr)
	if !t.started {
		return nil, nil
	}
	nd := tr.disk
	var cands []string
	for _, o := range t.live() {
		if o != tr && !o.visible && o.seen >= 2 && sizeMatch(o.disk.R, nd.R) {
			cands = append(cands, o.disk.ID)
		}
	}
	var qs []Question
	if len(cands) > 0 {
		qs = append(qs, t.ask("identify", append([]string{nd.ID}, cands...),
			fmt.Sprintf("a new disk %s appeared at (%.1f, %.1f) cm: is it one of %v, moved out of its reach, or a new disk?", label(nd), nd.X, nd.Y, cands)))
	}
	return []Event{{Frame: obs.Frame, Kind: "new", ID: nd.ID, Name: nd.Name, Text: fmt.Sprintf("a new disk %s at (%.1f, %.1f) cm", label(nd), nd.X, nd.Y)}}, qs
}

// keepRemoved is how many removed disks the tracker remembers, the most
// recently removed first, for one to be seen again at its very place
// (a disk the detector had missed for a while).
const keepRemoved = 64

// prune forgets the tracks no reading will need again: tentative disks
// never confirmed, killed disks, and removed disks beyond keepRemoved.
// The questions about a forgotten disk are closed.
func (t *Tracker) prune() {
	var removed []*track
	for _, tr := range t.tracks {
		if tr.gone && !tr.killed && tr.seen >= 2 {
			removed = append(removed, tr)
		}
	}
	forget := map[*track]bool{}
	if len(removed) > keepRemoved {
		slices.SortStableFunc(removed, func(a, b *track) int { return b.goneAt - a.goneAt })
		for _, tr := range removed[keepRemoved:] {
			forget[tr] = true
		}
	}
	kept := t.tracks[:0]
	for _, tr := range t.tracks {
		if !tr.killed && !forget[tr] && !(tr.gone && tr.seen < 2) {
			kept = append(kept, tr)
		}
	}
	if len(kept) == len(t.tracks) {
		return
	}
	clear(t.tracks[len(kept):])
	t.tracks = kept
	held := map[string]bool{}
	for _, tr := range t.tracks {
		held[tr.disk.ID] = true
	}
	for k, q := range t.questions {
		if slices.ContainsFunc(q.Disks, func(id string) bool { return !held[id] }) {
			delete(t.questions, k)
		}
	}
}

// sawBefore reports whether the previous reading had a disk of d's size
// at d's place.
func (t *Tracker) sawBefore(d models.Disk) bool {
	for _, o := range t.prev {
		if sizeMatch(o.R, d.R) && dist(o.Centre(), d.Centre()) < 0.2*float64(d.R) {
			return true
		}
	}
	return false
}

// ambiguities returns a question for every pair of similar disks whose
// swapped reading is about as good as the one taken.
func (t *Tracker) ambiguities(trs []*track, match []int, cost [][]float64) []Question {
	var qs []Question
	for i := range trs {
		for k := i + 1; k < len(trs); k++ {
			a, b := match[i], match[k]
			if trs[i].seen < 2 || trs[k].seen < 2 {
				continue // a tentative disk is not on the table yet
			}
			if a < 0 || b < 0 || cost[i][b] >= forbidden || cost[k][a] >= forbidden {
				continue
			}
			if cost[i][b]+cost[k][a]-cost[i][a]-cost[k][b] < t.opt.Margin {
				ids := []string{trs[i].disk.ID, trs[k].disk.ID}
				qs = append(qs, t.ask("swap", ids, fmt.Sprintf("%s and %s look alike and both moved: are they the right way round?", label(trs[i].disk), label(trs[k].disk))))
			}
		}
	}
	return qs
}

// ask opens a question, or returns the one already open with the same
// kind and disks.
func (t *Tracker) ask(kind string, ids []string, text string) Question {
	key := questionKey(kind, ids)
	if q, ok := t.questions[key]; ok {
		return q
	}
	t.nextQ++
	q := Question{ID: t.nextQ, Kind: kind, Disks: ids, Text: text}
	t.questions[key] = q
	return q
}

// questionKey is what tells open questions apart: their kind and disks.
func questionKey(kind string, ids []string) string { return kind + fmt.Sprint(ids) }

// Questions returns the questions still open, oldest first.
func (t *Tracker) Questions() []Question {
	var qs []Question
	for _, q := range t.questions {
		qs = append(qs, q)
	}
	slices.SortFunc(qs, func(a, b Question) int { return a.ID - b.ID })
	return qs
}

func label(d models.Disk) string {
	if d.Name != "" {
		return fmt.Sprintf("%s (%s)", d.Name, d.ID)
	}
	return d.ID
}

// layout returns the tracked table: the observation's tokens and options
// with the tracked disks, and the tokens' touches renamed after owner
// (the track each detection became); a touch of a disk not on the table
// (a tentative one) is dropped.
func (t *Tracker) layout(obs models.Layout, owner map[string]*track) models.Layout {
	out := obs.Clone()
	out.Disks = nil
	rename := map[string]string{}
	for det, tr := range owner {
		if tr.onTable() {
			rename[det] = tr.disk.ID
		}
	}
	for _, tr := range t.tracks {
		if !tr.onTable() {
			continue
		}
		d := tr.disk.Clone()
		if !tr.visible {
			if d.Extra == nil {
				d.Extra = map[string]json.RawMessage{}
			}
			d.Extra["tracking"] = json.RawMessage(`{"seen":false}`)
		}
		out.Disks = append(out.Disks, d)
	}
	for k := range out.Tokens {
		tok := &out.Tokens[k]
		if tok.Touches == nil {
			continue
		}
		var ids []string
		for _, id := range tok.Touches {
			if n, ok := rename[id]; ok {
				ids = append(ids, n)
			}
		}
		tok.Touches = ids
		if tok.Touches == nil {
			tok.Touches = []string{}
		}
	}
	if t.warp != Identity || t.remap {
		out.Tokens = t.reanchorTokens(out.Tokens)
	}
	distinctTokenIDs(&out)
	return out
}

func (t *Tracker) reanchorTokens(toks []models.Token) []models.Token {
	for k := range toks {
		p := toks[k].Pixel
		if p == nil {
			continue
		}
		u, v := t.warp.Apply(p.PX, p.PY)
		if t.opt.Calibration == nil {
			toks[k].X, toks[k].Y = models.Centimetres(u), models.Centimetres(v)
			continue
		}
		if q, err := t.opt.Calibration.TableFromImage(u, v, 0); err == nil {
			dx, dy := q.X-toks[k].X, q.Y-toks[k].Y
			toks[k].X, toks[k].Y = q.X, q.Y
			for i := range toks[k].Poly {
				toks[k].Poly[i].X += dx
				toks[k].Poly[i].Y += dy
			}
		}
	}
	return toks
}
