package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	"tableref/models"
)

// The detector names what it sees afresh in every frame, in reading order
// (d1, d2, ... top to bottom, left to right; tokens t1, t2, ... likewise).
// When a disk leaves the table, or a phantom comes and goes, the disks
// after it are renumbered. The UI keys corrections, the damage tracker
// and activations by id, so a renumbering would silently move a name, a
// tally or a "not a disk" onto another disk. idKeeper sits between the
// detector and the UI and gives each piece the id it had in the frames
// before.

const (
	// keepSize: a detection is taken for a remembered piece only when
	// their radii differ by at most this fraction of the larger one. The
	// two closest sizes of the disk catalogue (small creature 2.225 cm,
	// creature 2.54 cm: vision.DefaultDiskCatalogue) differ by 12 %; the
	// detector measures a radius to a few per cent (it snaps within 4 %).
	keepSize = 0.10
	// keepReach: ... and only when its centre lies within this fraction of
	// the remembered radius of where the piece was last seen. The
	// detector's own jitter is about a millimetre; half a radius is 1.1 cm
	// for the smallest creature (0.6 cm for a spell), what a disk slid at
	// 33 cm/s (19 cm/s) moves from one frame to the next at 30 frames a
	// second, so a piece seen in every frame keeps its id however far it
	// slides. A piece moved out of sight (lifted, flipped: a Diskwars flip
	// moves a disk by its diameter) lands further away and comes back as
	// a new piece with a new id. Half the radius, and not the whole radius
	// the corrections use to follow a disk by position, because a wrong
	// match is worse than none: it moves a name or a tally onto another
	// disk, while a new id only loses the tracker's count (the corrections
	// still find the disk within its radius of where they last saw it).
	keepReach = 0.5
	// keepFor is how long a piece that is not seen is remembered, so that
	// it gets its id back when it comes back to its place: a hand over the
	// table, a disk picked up to read and put back, missed detections.
	// Measured in frame time, so it does not depend on the frame rate.
	keepFor = 10 * time.Second
	// keepMax bounds how many disks (and, apart, tokens) are remembered: a
	// table holds a few dozen; phantoms seen once in a while are the first
	// forgotten when it is reached.
	keepMax = 256
)

// idKeeper gives the disks and tokens of successive layouts of one
// source stable ids (see keepSize, keepReach, keepFor). New pieces get
// new ids from counters that only count up ("d1", "d2", ...; "t1",
// "t2", ...): an id is never given to another piece, even after its own
// piece is forgotten. The first frame's ids are the detector's (reading
// order), so a corrections file written against "tableref detect" still
// finds its disks. Not safe for concurrent use: one source owns it.
type idKeeper struct {
	disks, tokens idSeries
}

func newIDKeeper() *idKeeper {
	return &idKeeper{disks: idSeries{prefix: "d"}, tokens: idSeries{prefix: "t"}}
}

// Name returns l, seen at now, with its disks and tokens renamed to their
// stable ids, and the ids a token touches renamed with them. l is not
// changed.
func (k *idKeeper) Name(l models.Layout, now time.Time) models.Layout {
	out := l.Clone()
	cs := make([]place, len(out.Disks))
	for i, d := range out.Disks {
		cs[i] = placeOf(d.X, d.Y, d.R, d.Pixel)
	}
	ids := k.disks.assign(cs, now)
	rename := make(map[string]string, len(ids))
	for i := range out.Disks {
		rename[out.Disks[i].ID] = ids[i]
		out.Disks[i].ID = ids[i]
	}
	for i := range out.Disks {
		if t, ok := rename[out.Disks[i].Target]; ok {
			out.Disks[i].Target = t
		}
	}
	cs = make([]place, len(out.Tokens))
	for i, t := range out.Tokens {
		cs[i] = placeOf(t.X, t.Y, t.R, t.Pixel)
	}
	ids = k.tokens.assign(cs, now)
	for i := range out.Tokens {
		t := &out.Tokens[i]
		t.ID = ids[i]
		t.Touches = renamed(t.Touches, rename)
	}
	return out
}

// renamed returns the ids renamed; an id of no disk of the frame is
// dropped, since its name may now belong to another disk. nil stays nil
// (the engine then works the touches out).
func renamed(ids []string, rename map[string]string) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if n, ok := rename[id]; ok {
			out = append(out, n)
		}
	}
	return out
}

// UnitsChanged is called when the calibration changes: positions in the
// layout's units (centimetres, or pixels without a calibration) are not
// comparable across it, so the pieces remembered by them are forgotten.
// Pieces remembered by their circle in the image (every piece the
// detector reports has one) stay: a new calibration does not move them
// in the image, so names and tallies survive the calibration wizard.
func (k *idKeeper) UnitsChanged() {
	k.disks.forgetLayoutUnits()
	k.tokens.forgetLayoutUnits()
}

// place is where a piece lies, centre and radius: in the image (pixels)
// when the detector gave its image circle, else in the layout's units.
// Places of the two kinds are never compared.
type place struct {
	x, y, r float64
	image   bool
}

func placeOf(x, y, r models.Centimetres, px *models.ImageCircle) place {
	if px != nil && px.PR > 0 {
		return place{x: px.PX, y: px.PY, r: px.PR, image: true}
	}
	return place{x: float64(x), y: float64(y), r: float64(r)}
}

// usable reports whether the place can be compared at all: a detector's
// glitch (not a number, infinite, no radius) cannot.
func (c place) usable() bool {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	return finite(c.x) && finite(c.y) && finite(c.r) && c.r > 0
}

// matches reports whether a detection at c may be the piece last seen at
// was, and how far it lies from there.
func (c place) matches(was place) (float64, bool) {
	if c.image != was.image || math.Abs(c.r-was.r) > keepSize*max(c.r, was.r) {
		return 0, false
	}
	d := math.Hypot(c.x-was.x, c.y-was.y)
	return d, d <= keepReach*was.r
}

// keptPiece is a remembered piece.
type keptPiece struct {
	id        string
	at        place
	seen      time.Time
	sightings int
}

// idSeries remembers the pieces of one kind (disks or tokens) and numbers
// new ones.
type idSeries struct {
	prefix string
	last   int // the last number given
	kept   []keptPiece
}

// assign returns the id of each detection, in order, and remembers them
// as seen at now. Nearest pairs are matched first, each remembered piece
// to one detection at most; a detection left over gets a new id. A
// detection that cannot be compared gets a new id and is not remembered.
func (s *idSeries) assign(cs []place, now time.Time) []string {
	s.forgetOlder(now.Add(-keepFor))
	ids := make([]string, len(cs))
	taken := make([]bool, len(s.kept))
	for _, p := range s.pairs(cs) {
		if ids[p.det] != "" || taken[p.kept] {
			continue
		}
		taken[p.kept] = true
		k := &s.kept[p.kept]
		ids[p.det] = k.id
		k.at, k.seen = cs[p.det], now
		k.sightings++
	}
	for i, c := range cs {
		if ids[i] != "" {
			continue
		}
		s.last++
		ids[i] = fmt.Sprintf("%s%d", s.prefix, s.last)
		if c.usable() {
			s.kept = append(s.kept, keptPiece{id: ids[i], at: c, seen: now, sightings: 1})
		}
	}
	s.bound(now)
	return ids
}

type candidate struct {
	det, kept int
	dist      float64
}

// pairs returns every detection and remembered piece that may be the
// same, nearest first (ties in detection order, for repeatable ids).
func (s *idSeries) pairs(cs []place) []candidate {
	var out []candidate
	for i, c := range cs {
		if !c.usable() {
			continue
		}
		for j, k := range s.kept {
			if d, ok := c.matches(k.at); ok {
				out = append(out, candidate{det: i, kept: j, dist: d})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b candidate) int { return cmp.Compare(a.dist, b.dist) })
	return out
}

// forgetOlder forgets the pieces last seen before t.
func (s *idSeries) forgetOlder(t time.Time) {
	s.kept = slices.DeleteFunc(s.kept, func(k keptPiece) bool { return k.seen.Before(t) })
}

func (s *idSeries) forgetLayoutUnits() {
	s.kept = slices.DeleteFunc(s.kept, func(k keptPiece) bool { return !k.at.image })
}

// bound keeps at most keepMax pieces: those seen now first, then those
// seen most often (a real disk under a hand has been seen in many frames,
// a phantom in few), then the most recently seen.
func (s *idSeries) bound(now time.Time) {
	if len(s.kept) <= keepMax {
		return
	}
	slices.SortStableFunc(s.kept, func(a, b keptPiece) int {
		if c := cmp.Compare(seenAt(b, now), seenAt(a, now)); c != 0 {
			return c
		}
		if c := cmp.Compare(b.sightings, a.sightings); c != 0 {
			return c
		}
		return b.seen.Compare(a.seen)
	})
	s.kept = slices.Delete(s.kept, keepMax, len(s.kept))
}

// seenAt is 1 when k was seen at now, else 0.
func seenAt(k keptPiece, now time.Time) int {
	if k.seen.Equal(now) {
		return 1
	}
	return 0
}
