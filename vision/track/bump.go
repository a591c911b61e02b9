package track

import (
	"fmt"
	"math"
	"slices"

	"tableref/models"
)

// inverse returns the inverse homography.
func (h Homography) inverse() (Homography, bool) {
	a, b, c, d, e, f, g, k, l := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	det := a*(e*l-f*k) - b*(d*l-f*g) + c*(d*k-e*g)
	if math.Abs(det) < 1e-12 {
		return Homography{}, false
	}
	inv := Homography{
		(e*l - f*k) / det, (c*k - b*l) / det, (b*f - c*e) / det,
		(f*g - d*l) / det, (a*l - c*g) / det, (c*d - a*f) / det,
		(d*k - e*g) / det, (b*g - a*k) / det, (a*e - b*d) / det,
	}
	if inv[8] != 0 {
		for i := range inv {
			inv[i] /= inv[8]
		}
	}
	return inv, true
}

// checkBump looks for a moved camera: most disks that were seen, not
// under a hand, are no longer where they were in the image, yet agree on
// one planar motion of the view. A clean motion re-anchors the view (the
// warp); a view that changed with no clean motion asks for a new
// calibration. Disks in play rarely all move between two readings, so the
// disks are the fixed features of the table here, measured to a fraction
// of a pixel by the detector, whatever the table's surface.
func (t *Tracker) checkBump(obs Observation, dets []models.Disk) (*Event, *Question) {
	var olds []*track
	for _, tr := range t.live() {
		if p := tr.ref; p != nil && tr.seen >= 2 && !obs.Hand.Covers(p.PX, p.PY, p.PR) {
			olds = append(olds, tr)
		}
	}
	if len(olds) < 3 || len(dets) < 3 {
		return nil, nil
	}
	stay := 0
	var src, dst []pt
	var owner []int
	var radii, dus, dvs []float64
	for i, tr := range olds {
		p := tr.ref
		radii = append(radii, p.PR)
		near := math.Inf(1)
		var du, dv float64
		for _, d := range dets {
			q := d.Pixel
			if q == nil || math.Abs(q.PR-p.PR) > 0.2*p.PR {
				continue
			}
			if e := math.Hypot(q.PX-p.PX, q.PY-p.PY); e < near {
				near, du, dv = e, q.PX-p.PX, q.PY-p.PY
			}
			src = append(src, pt{p.PX, p.PY})
			dst = append(dst, pt{q.PX, q.PY})
			owner = append(owner, i)
		}
		if near < math.Max(2.5, 0.08*p.PR) {
			stay++
		}
		if near < 0.5*p.PR {
			dus, dvs = append(dus, du), append(dvs, dv)
		}
	}
	n := len(olds)
	if 2*stay >= n && !coherentShift(dus, dvs, n) {
		return nil, nil
	}
	slices.Sort(radii)
	tol := math.Max(1.5, 0.12*radii[len(radii)/2])
	h, in := ransac(src, dst, tol, t.rng)
	agree := map[int]bool{}
	var shifts, resid []float64
	for _, k := range in {
		agree[owner[k]] = true
		u, v := h.Apply(src[k].U, src[k].V)
		shifts = append(shifts, math.Hypot(u-src[k].U, v-src[k].V))
		resid = append(resid, math.Hypot(u-dst[k].U, v-dst[k].V))
	}
	slices.Sort(shifts)
	slices.Sort(resid)
	// The view moved when the motion stands well clear of the noise of
	// the measured centres.
	moved := len(shifts) > 0 && shifts[len(shifts)/2] > math.Max(1.5, 3*resid[len(resid)/2])
	inv, ok := h.inverse()
	if !ok || !moved || len(agree) < max(3, (n+1)/2) {
		if 10*stay < 3*n {
			q := t.ask("recalibrate", nil, "the view has changed and the disks do not agree on how: the camera may have moved; please recalibrate")
			return nil, &q
		}
		return nil, nil
	}
	for _, tr := range t.live() {
		if p := tr.ref; p != nil {
			u, v := h.Apply(p.PX, p.PY)
			np := *p
			np.PX, np.PY = u, v
			tr.ref, tr.disk.Pixel = &np, &np
		}
	}
	t.warp = inv.Then(t.warp)
	med := shifts[len(shifts)/2]
	return &Event{Frame: obs.Frame, Kind: "bump",
		Text: fmt.Sprintf("the camera moved (disks shifted %.1f px in the image, %d of %d agree); view re-anchored", med, len(agree), n)}, nil
}

// coherentShift reports whether most disks moved the same way in the
// image by more than a pixel and a half: the median of the displacements
// (of the n disks, those seen near where they were) is that far from
// zero.
func coherentShift(dus, dvs []float64, n int) bool {
	if 2*len(dus) < n {
		return false
	}
	slices.Sort(dus)
	slices.Sort(dvs)
	return math.Hypot(dus[len(dus)/2], dvs[len(dvs)/2]) > 1.5
}

// Kill takes a disk off the table for good: a killed disk is never matched
// again (the rules' dead do not come back). It reports whether the id was
// found.
func (t *Tracker) Kill(id string) bool {
	for _, tr := range t.tracks {
		if tr.disk.ID == id && !tr.killed {
			tr.killed = true
			return true
		}
	}
	return false
}

// Answer settles an open question. For a swap, yes exchanges the two
// disks' identities; for an identify question, yes gives the new disk
// (the first id) the identity of choice (one of the others), and that
// disk's earlier self is retired; for gone, yes kills the disk, unless it
// was seen at the latest reading: then the question no longer stands, and
// the answer is refused with an error. A recalibrate question is closed by
// any answer. It reports an error for an unknown question or a bad choice.
func (t *Tracker) Answer(q Question, yes bool, choice string) error {
	key := questionKey(q.Kind, q.Disks)
	if _, ok := t.questions[key]; !ok {
		return fmt.Errorf("answer: question %d is not open", q.ID)
	}
	delete(t.questions, key)
	if !yes {
		return nil
	}
	switch q.Kind {
	case "swap":
		a, b := t.byID(q.Disks[0]), t.byID(q.Disks[1])
		if a == nil || b == nil {
			return fmt.Errorf("answer: disks %v are no longer tracked", q.Disks)
		}
		swapIdentity(a, b)
	case "gone":
		if tr := t.byID(q.Disks[0]); tr != nil && tr.visible && !tr.gone {
			return fmt.Errorf("answer: %s is on the table (seen at the latest reading): not killed", label(tr.disk))
		}
		t.Kill(q.Disks[0])
	case "identify":
		if !slices.Contains(q.Disks[1:], choice) {
			return fmt.Errorf("answer: %q is not one of %v", choice, q.Disks[1:])
		}
		nw, old := t.byID(q.Disks[0]), t.byID(choice)
		if nw == nil || old == nil {
			return fmt.Errorf("answer: disks %s, %s are no longer tracked", q.Disks[0], choice)
		}
		pos := nw.disk
		nw.disk, nw.named = old.disk, old.named
		nw.disk.X, nw.disk.Y, nw.disk.Z, nw.disk.Pixel = pos.X, pos.Y, pos.Z, pos.Pixel
		nw.faces = append(old.faces, nw.faces...)[:min(2, len(old.faces)+len(nw.faces))]
		old.killed = true
	}
	return nil
}

func (t *Tracker) byID(id string) *track {
	for _, tr := range t.tracks {
		if tr.disk.ID == id && !tr.killed {
			return tr
		}
	}
	return nil
}

// swapIdentity exchanges who two tracks are, keeping where they are.
func swapIdentity(a, b *track) {
	da, db := a.disk, b.disk
	a.disk, b.disk = db, da
	a.disk.X, a.disk.Y, a.disk.Z, a.disk.Pixel = da.X, da.Y, da.Z, da.Pixel
	b.disk.X, b.disk.Y, b.disk.Z, b.disk.Pixel = db.X, db.Y, db.Z, db.Pixel
	a.faces, b.faces = b.faces, a.faces
	a.anchor, b.anchor = b.anchor, a.anchor
	a.ref, b.ref = b.ref, a.ref
	a.named, b.named = b.named, a.named
}

// Disk returns the tracked disk of the given id (its last known state),
// and false when no live disk has it.
func (t *Tracker) Disk(id string) (models.Disk, bool) {
	if tr := t.byID(id); tr != nil && !tr.gone {
		return tr.disk.Clone(), true
	}
	return models.Disk{}, false
}
