package track

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"tableref/models"
)

// CheckRoster reports what makes a layout unfit to name disks with (see
// Adopt): a disk with no id, two disks with the same id, a centre that is
// not a number or a radius that is not a positive one. Only the disks are
// looked at: a roster's tokens are not adopted.
func CheckRoster(named models.Layout) error {
	first := map[string]int{}
	for i, d := range named.Disks {
		if d.ID == "" {
			return fmt.Errorf("roster disk %d has no id", i+1)
		}
		if j, dup := first[d.ID]; dup {
			return fmt.Errorf("roster disks %d and %d are both %q: ids must be unique", j+1, i+1, d.ID)
		}
		first[d.ID] = i
		if !finite(float64(d.X)) || !finite(float64(d.Y)) {
			return fmt.Errorf("roster disk %s: centre (%v, %v) is not a number", label(d), d.X, d.Y)
		}
		if !finite(float64(d.R)) || d.R <= 0 {
			return fmt.Errorf("roster disk %s: radius %v cm, want a positive number", label(d), d.R)
		}
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// UnplacedError lists the roster disks Adopt found no tracked disk for.
// They are not lost: the tracker names each when it appears (see Adopt).
type UnplacedError struct {
	Disks []models.Disk
}

func (e *UnplacedError) Error() string {
	var parts []string
	for _, d := range e.Disks {
		parts = append(parts, fmt.Sprintf("%s (radius %.2f at (%.1f, %.1f))", label(d), d.R, d.X, d.Y))
	}
	return fmt.Sprintf("adopt: no tracked disk yet for %d named disk(s): %s; each is named when a new disk of its size appears at its place",
		len(e.Disks), strings.Join(parts, ", "))
}

// placement pairs a roster disk with the track that takes its identity.
type placement struct {
	tr *track
	nd models.Disk
}

// Adopt takes the identities a player gave: each disk of named (a layout
// with ids, names, owners, stats...) is matched to a tracked disk, which
// takes its identity and keeps the tracker's position. A disk that an
// earlier roster named is matched by its id, wherever it has moved since;
// the others by place, each to a tracked disk of its size within its
// radius, nearest pairs first over the whole roster (its order does not
// matter). A tracked disk holding an id that the roster gives to another
// disk takes a fresh id, so no two disks ever share one.
//
// An unfit roster (see CheckRoster) is an error and changes nothing.
// Otherwise every roster disk that can be placed is, and the others wait:
// each is named when a new disk of its size is confirmed within its
// radius of its roster place (a disk the detector missed, a reserve laid
// down there later). Adopt then returns, with the renames, an
// *UnplacedError listing the waiting disks.
//
// The map takes the old id of every disk named (or given a fresh id) to
// its new one; Rename applies it to a layout made before.
func (t *Tracker) Adopt(named models.Layout) (map[string]string, error) {
	if err := CheckRoster(named); err != nil {
		return nil, fmt.Errorf("adopt: %w", err)
	}
	pairs, unplaced := t.matchRoster(named.Disks)
	claimed := map[string]bool{}
	for _, nd := range named.Disks {
		claimed[nd.ID] = true
		t.reserved[nd.ID] = true
	}
	placed := map[*track]bool{}
	for _, p := range pairs {
		placed[p.tr] = true
	}
	renamed := map[string]string{}
	for _, tr := range t.tracks {
		if !tr.killed && !placed[tr] && claimed[tr.disk.ID] {
			// The roster gives this id to another disk, one on the table
			// or one still to come.
			old := tr.disk.ID
			tr.disk.ID, tr.named = t.freshID(nil), false
			renamed[old] = tr.disk.ID
		}
	}
	for _, p := range pairs {
		renamed[p.tr.disk.ID] = p.nd.ID
		p.tr.take(p.nd)
	}
	t.pending = slices.DeleteFunc(t.pending, func(d models.Disk) bool { return claimed[d.ID] })
	t.pending = append(t.pending, unplaced...)
	t.remapQuestions(renamed)
	if len(unplaced) > 0 {
		return renamed, &UnplacedError{Disks: unplaced}
	}
	return renamed, nil
}

// matchRoster pairs the roster's disks with tracks (see Adopt) and returns
// the pairs and the roster disks left without a track.
func (t *Tracker) matchRoster(roster []models.Disk) ([]placement, []models.Disk) {
	var pairs []placement
	var rest []models.Disk
	held := map[*track]bool{}
	for _, nd := range roster {
		if tr := t.namedAs(nd.ID); tr != nil {
			pairs = append(pairs, placement{tr, nd})
			held[tr] = true
			continue
		}
		rest = append(rest, nd)
	}
	var free []*track
	for _, tr := range t.live() {
		if !held[tr] {
			free = append(free, tr)
		}
	}
	cost := make([][]float64, len(rest))
	miss, spare := make([]float64, len(rest)), make([]float64, len(free))
	for i, nd := range rest {
		miss[i] = 1
		cost[i] = make([]float64, len(free))
		for j, tr := range free {
			cost[i][j] = forbidden
			if d := dist(tr.disk.Centre(), nd.Centre()); sizeMatch(tr.disk.R, nd.R) && d < float64(nd.R) {
				cost[i][j] = d / float64(nd.R)
			}
		}
	}
	for j := range spare {
		spare[j] = 1
	}
	var unplaced []models.Disk
	for i, j := range Assign(cost, miss, spare) {
		if j < 0 {
			unplaced = append(unplaced, rest[i])
			continue
		}
		pairs = append(pairs, placement{free[j], rest[i]})
	}
	return pairs, unplaced
}

// namedAs returns the track an earlier roster named id (on the table or
// removed, not killed), or nil.
func (t *Tracker) namedAs(id string) *track {
	for _, tr := range t.tracks {
		if tr.named && !tr.killed && tr.disk.ID == id {
			return tr
		}
	}
	return nil
}

// take gives the track the identity of a roster disk, keeping where the
// tracker has it. A roster made from an earlier tracked layout may carry
// a disk's "tracking" field: it described that layout, not this one.
func (tr *track) take(nd models.Disk) {
	id := nd.Clone()
	id.X, id.Y, id.Z, id.Pixel = tr.disk.X, tr.disk.Y, tr.disk.Z, tr.disk.Pixel
	if id.Rim == "" && id.RimColour == "" {
		id.Rim, id.RimColour = tr.disk.Rim, tr.disk.RimColour
	}
	delete(id.Extra, "tracking")
	tr.disk = id
	tr.named = true
	tr.seen = max(tr.seen, 2)
}

// claimPending gives a newly confirmed disk the identity of the waiting
// roster disk (see Adopt) of its size nearest it, within that disk's
// radius of its roster place. It reports whether it did.
func (t *Tracker) claimPending(tr *track) bool {
	best, bd := -1, math.Inf(1)
	for i, nd := range t.pending {
		if d := dist(tr.disk.Centre(), nd.Centre()); sizeMatch(tr.disk.R, nd.R) && d < float64(nd.R) && d < bd {
			best, bd = i, d
		}
	}
	if best < 0 {
		return false
	}
	tr.take(t.pending[best])
	t.pending = slices.Delete(t.pending, best, best+1)
	return true
}

// freshID returns a new disk id (n1, n2...) that no tracked disk, no
// roster disk (placed or waiting) and none of the tokens holds: disks and
// tokens share one id space (table-model.md).
func (t *Tracker) freshID(tokens []models.Token) string {
	taken := map[string]bool{}
	for _, tr := range t.tracks {
		taken[tr.disk.ID] = true
	}
	for _, tok := range tokens {
		taken[tok.ID] = true
	}
	for {
		t.nextID++
		if id := fmt.Sprintf("n%d", t.nextID); !taken[id] && !t.reserved[id] {
			return id
		}
	}
}

// remapQuestions follows renamed disks into the open questions, so that
// an answer, and the closing of a question when its disk is seen again,
// still find them.
func (t *Tracker) remapQuestions(renamed map[string]string) {
	open := t.questions
	t.questions = map[string]Question{}
	for _, q := range open {
		if q.Disks != nil {
			ids := make([]string, len(q.Disks))
			for i, id := range q.Disks {
				ids[i] = id
				if n, ok := renamed[id]; ok {
					ids[i] = n
				}
			}
			q.Disks = ids
		}
		t.questions[questionKey(q.Kind, q.Disks)] = q
	}
}

// Rename applies the renames Adopt returned to a tracked layout: each
// renamed disk takes the tracker's new identity (keeping its place in
// the layout), and the tokens' touches follow. A token whose id a disk
// now holds is given a fresh one.
func (t *Tracker) Rename(l models.Layout, renamed map[string]string) models.Layout {
	out := l.Clone()
	for i, d := range out.Disks {
		n, ok := renamed[d.ID]
		if !ok {
			continue
		}
		if nd, ok := t.Disk(n); ok {
			nd.X, nd.Y, nd.Z, nd.Pixel, nd.Extra = d.X, d.Y, d.Z, d.Pixel, d.Extra
			out.Disks[i] = nd
		}
	}
	for k := range out.Tokens {
		for j, id := range out.Tokens[k].Touches {
			if n, ok := renamed[id]; ok {
				out.Tokens[k].Touches[j] = n
			}
		}
	}
	distinctTokenIDs(&out)
	return out
}

// distinctTokenIDs gives a fresh id (t1, t2...) to every token whose id
// a disk, or a token before it, already holds. The detector names its
// tokens t1, t2... afresh at every reading, while a roster may name a
// disk t1: disks keep their ids, tokens have no identity to keep.
func distinctTokenIDs(l *models.Layout) {
	taken := map[string]bool{}
	for _, d := range l.Disks {
		taken[d.ID] = true
	}
	var clash []int
	for k, tok := range l.Tokens {
		if tok.ID == "" {
			continue // the loader names a token without an id
		}
		if taken[tok.ID] {
			clash = append(clash, k)
		}
		taken[tok.ID] = true
	}
	n := 0
	for _, k := range clash {
		for {
			n++
			if id := fmt.Sprintf("t%d", n); !taken[id] {
				l.Tokens[k].ID, taken[id] = id, true
				break
			}
		}
	}
}

// RenameRuling applies the renames Adopt returned to a ruling made before
// it: its layout (see Rename), and the ids of its events and questions,
// in their fields and in their texts, so that each still names a disk of
// the layout. The ruling given is not changed.
func (t *Tracker) RenameRuling(r Ruling, renamed map[string]string) Ruling {
	out := r
	out.Layout = t.Rename(r.Layout, renamed)
	out.Events = slices.Clone(r.Events)
	for i := range out.Events {
		e := &out.Events[i]
		if n, ok := renamed[e.ID]; ok {
			e.ID = n
			if d, ok := t.Disk(n); ok {
				e.Name = d.Name
			}
		}
		e.Text = renameIDs(e.Text, renamed)
	}
	out.Questions = slices.Clone(r.Questions)
	for i := range out.Questions {
		q := &out.Questions[i]
		q.Disks = slices.Clone(q.Disks)
		for k, id := range q.Disks {
			if n, ok := renamed[id]; ok {
				q.Disks[k] = n
			}
		}
		q.Text = renameIDs(q.Text, renamed)
	}
	return out
}

// renameIDs replaces in text every id of renamed that stands as a word of
// its own (not inside a longer id: n1 is not in n12) with its new id, all
// at once (a, b -> b, a swaps them).
func renameIDs(text string, renamed map[string]string) string {
	idChar := func(c byte) bool {
		return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	var b strings.Builder
	for i := 0; i < len(text); {
		best := ""
		if i == 0 || !idChar(text[i-1]) {
			for old := range renamed {
				if len(old) > len(best) && strings.HasPrefix(text[i:], old) && (i+len(old) == len(text) || !idChar(text[i+len(old)])) {
					best = old
				}
			}
		}
		if best == "" {
			b.WriteByte(text[i])
			i++
			continue
		}
		b.WriteString(renamed[best])
		i += len(best)
	}
	return b.String()
}
