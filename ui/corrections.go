package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"tableref/models"
)

// Corrections are the player's fixes to what was detected, kept for a
// whole game and applied to every later layout: a disk's identity, stats,
// owner or stacking order, a token's kind, a phantom disk or token removed,
// a missed disk added.
//
// A fix finds its disk (or token) by id; when no disk has that id it finds
// the nearest one within that disk's radius of where the fix last saw it
// (At), so a fix follows a disk even when the detector renames it. Apply
// moves At along with the disk.
//
// The JSON form (a corrections file next to the session) is:
//
//	{"version": 1,
//	 "disks":  [{"id": "d3", "at": [40.0, 25.5], "name": "Orc Warband", "owner": "bob", "z": 2,
//	             "stats": {"attack": 5}, "keywords": ["berserk"], "delete": false}],
//	 "tokens": [{"id": "t1", "at": [41.0, 26.0], "kind": "arrow"}],
//	 "added":  [{"id": "added-1", "name": "Scout", "owner": "alice", "x": 50, "y": 40, "r": 2.5, "z": 0}]}
type Corrections struct {
	Version int        `json:"version"`
	Disks   []DiskFix  `json:"disks,omitempty"`
	Tokens  []TokenFix `json:"tokens,omitempty"`
	Added   []AddDisk  `json:"added,omitempty"`
}

// DiskFix corrects one detected disk. Nil fields leave the detection as
// it is. For Stats and Keywords an empty, non-nil value is a correction
// too: it clears the detected ones. The JSON form keeps the two apart:
// an absent field is no change, "stats": {} and "keywords": [] clear.
type DiskFix struct {
	ID           string         `json:"id"`
	At           *[2]float64    `json:"at,omitempty"`
	Delete       bool           `json:"delete,omitempty"`
	Name         *string        `json:"name,omitempty"`
	Owner        *string        `json:"owner,omitempty"`
	Side         *string        `json:"side,omitempty"`
	Faction      *string        `json:"faction,omitempty"`
	Kind         *string        `json:"kind,omitempty"`
	Z            *int           `json:"z,omitempty"`
	R            *float64       `json:"r,omitempty"`
	Stats        map[string]int `json:"stats,omitzero"`
	Keywords     []string       `json:"keywords,omitzero"`
	MissileKind  *string        `json:"missile_kind,omitempty"`
	MissileCount *int           `json:"missile_count,omitempty"`
}

// TokenFix corrects one detected token: its kind, or deletes it.
type TokenFix struct {
	ID     string      `json:"id"`
	At     *[2]float64 `json:"at,omitempty"`
	Delete bool        `json:"delete,omitempty"`
	Kind   *string     `json:"kind,omitempty"`
}

// AddDisk is a disk the detector missed, placed by the player (table frame,
// cm).
type AddDisk struct {
	ID       string         `json:"id"`
	Name     string         `json:"name,omitempty"`
	Owner    string         `json:"owner,omitempty"`
	Side     string         `json:"side,omitempty"`
	Faction  string         `json:"faction,omitempty"`
	Kind     string         `json:"kind,omitempty"`
	X        float64        `json:"x"`
	Y        float64        `json:"y"`
	R        float64        `json:"r"`
	Z        int            `json:"z"`
	Stats    map[string]int `json:"stats,omitempty"`
	Keywords []string       `json:"keywords,omitempty"`
}

// ErrCorrections marks a corrections file that cannot be used.
var ErrCorrections = errors.New("bad corrections")

// ParseCorrections reads the JSON form of corrections and checks it: the
// version is 1, numbers are finite, added disks have a positive radius and
// unique ids, every fix names an id or a position.
func ParseCorrections(data []byte) (Corrections, error) {
	var c Corrections
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Corrections{}, fmt.Errorf("%w: %v", ErrCorrections, err)
	}
	if dec.More() {
		return Corrections{}, fmt.Errorf("%w: data after the JSON object", ErrCorrections)
	}
	if err := c.validate(); err != nil {
		return Corrections{}, fmt.Errorf("%w: %v", ErrCorrections, err)
	}
	return c, nil
}

func (c Corrections) validate() error {
	if c.Version != 1 {
		return fmt.Errorf("version %d, want 1", c.Version)
	}
	for i, f := range c.Disks {
		if f.ID == "" && f.At == nil {
			return fmt.Errorf("disks[%d]: give an id or a position", i)
		}
		if !finitePair(f.At) || (f.R != nil && !(*f.R > 0 && *f.R < maxRadius)) {
			return fmt.Errorf("disks[%d]: position and radius must be finite, the radius positive", i)
		}
	}
	for i, f := range c.Tokens {
		if f.ID == "" && f.At == nil {
			return fmt.Errorf("tokens[%d]: give an id or a position", i)
		}
		if !finitePair(f.At) {
			return fmt.Errorf("tokens[%d]: position must be finite", i)
		}
	}
	ids := map[string]bool{}
	for i, a := range c.Added {
		if a.ID == "" || ids[a.ID] {
			return fmt.Errorf("added[%d]: id %q empty or used twice", i, a.ID)
		}
		ids[a.ID] = true
		if !finite(a.X) || !finite(a.Y) || !(a.R > 0 && a.R < maxRadius) {
			return fmt.Errorf("added[%d] %s: x, y must be finite and r positive", i, a.ID)
		}
	}
	return nil
}

// maxCoordinate bounds every position (cm) and maxRadius every radius
// (cm) a corrections file may hold; the same limits are checked when a
// file is read, when it is written and when a detected position is copied
// into a fix, so that what is saved can always be loaded again.
const (
	maxCoordinate = 1e9
	maxRadius     = 1e6
)

func finite(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && math.Abs(v) < maxCoordinate
}

func finitePair(p *[2]float64) bool { return p == nil || (finite(p[0]) && finite(p[1])) }

// position returns the point as a fix's position, or nil when it lies
// beyond the limits (not a number, infinite, or too far out): a glitch of
// the detector that must not become part of the corrections.
func position(x, y models.Centimetres) *[2]float64 {
	p := [2]float64{float64(x), float64(y)}
	if !finitePair(&p) {
		return nil
	}
	return &p
}

// LoadCorrections reads a corrections file; a missing file gives empty
// corrections.
func LoadCorrections(path string) (Corrections, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Corrections{Version: 1}, nil
	}
	if err != nil {
		return Corrections{}, fmt.Errorf("corrections %s: %w", path, err)
	}
	c, err := ParseCorrections(data)
	if err != nil {
		return Corrections{}, fmt.Errorf("corrections %s: %w", path, err)
	}
	return c, nil
}

// Save writes the corrections to path atomically (models.WriteFileAtomic).
// Corrections that LoadCorrections would refuse are not written, so the
// file already there is kept; the error says why.
func (c Corrections) Save(path string) error {
	c.Version = 1
	if err := c.validate(); err != nil {
		return fmt.Errorf("corrections %s not saved: %w: %v", path, ErrCorrections, err)
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return fmt.Errorf("corrections: %w", err)
	}
	if err := models.WriteFileAtomic(path, append(data, '\n')); err != nil {
		return fmt.Errorf("corrections %s: %w", path, err)
	}
	return nil
}

// Clone returns a deep copy of c, version 1. It copies field by field
// rather than through JSON so that it cannot fail and keeps an empty list
// (clear) apart from a nil one (no change).
func (c Corrections) Clone() Corrections {
	out := Corrections{Version: 1}
	if c.Disks != nil {
		out.Disks = make([]DiskFix, len(c.Disks))
		for i, f := range c.Disks {
			out.Disks[i] = f.clone()
		}
	}
	if c.Tokens != nil {
		out.Tokens = make([]TokenFix, len(c.Tokens))
		for i, f := range c.Tokens {
			out.Tokens[i] = TokenFix{ID: f.ID, At: clonePtr(f.At), Delete: f.Delete, Kind: clonePtr(f.Kind)}
		}
	}
	if c.Added != nil {
		out.Added = make([]AddDisk, len(c.Added))
		for i, a := range c.Added {
			a.Stats, a.Keywords = maps.Clone(a.Stats), slices.Clone(a.Keywords)
			out.Added[i] = a
		}
	}
	return out
}

func (f DiskFix) clone() DiskFix {
	return DiskFix{ID: f.ID, At: clonePtr(f.At), Delete: f.Delete,
		Name: clonePtr(f.Name), Owner: clonePtr(f.Owner), Side: clonePtr(f.Side), Faction: clonePtr(f.Faction),
		Kind: clonePtr(f.Kind), Z: clonePtr(f.Z), R: clonePtr(f.R),
		Stats: maps.Clone(f.Stats), Keywords: slices.Clone(f.Keywords),
		MissileKind: clonePtr(f.MissileKind), MissileCount: clonePtr(f.MissileCount)}
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// Apply returns the layout with the corrections applied and the
// corrections with each fix's position moved to where its disk or token
// now lies; a position beyond the limits (a detector's glitch: not a
// number, infinite) is not copied, the fix keeps the last good one.
// Neither input is changed.
func (c Corrections) Apply(l models.Layout) (models.Layout, Corrections) {
	out, next := l.Clone(), c.Clone()
	for _, a := range next.Added {
		out.Disks = append(out.Disks, a.disk(out))
	}
	gone := map[int]bool{}
	at := matchFixes(len(next.Disks), func(k int) (string, *[2]float64) { return next.Disks[k].ID, next.Disks[k].At },
		len(out.Disks), func(i int) (string, models.Centimetres, models.Centimetres, models.Centimetres) {
			d := out.Disks[i]
			return d.ID, d.X, d.Y, d.R
		})
	for k, i := range at {
		if i < 0 {
			continue
		}
		f := &next.Disks[k]
		d := &out.Disks[i]
		f.ID = d.ID
		if at := position(d.X, d.Y); at != nil {
			f.At = at
		}
		if f.Delete {
			gone[i] = true
			continue
		}
		f.applyTo(d)
	}
	out.Disks = deleteIndices(out.Disks, gone)
	out.Tokens = next.applyTokens(out.Tokens)
	return out, next
}

func (f DiskFix) applyTo(d *models.Disk) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&d.Name, f.Name)
	set(&d.Owner, f.Owner)
	set(&d.Side, f.Side)
	set(&d.Faction, f.Faction)
	set(&d.Kind, f.Kind)
	set(&d.MissileKind, f.MissileKind)
	if f.Z != nil {
		d.Z = *f.Z
	}
	if f.R != nil {
		d.R = models.Centimetres(*f.R)
	}
	if f.Stats != nil {
		d.Stats = models.Stats{}
		for k, v := range f.Stats {
			d.Stats[k] = v
		}
	}
	if f.Keywords != nil {
		d.Keywords = slices.Clone(f.Keywords)
	}
	if f.MissileCount != nil {
		d.MissileCount = *f.MissileCount
	}
}

func (c *Corrections) applyTokens(toks []models.Token) []models.Token {
	gone := map[int]bool{}
	at := matchFixes(len(c.Tokens), func(k int) (string, *[2]float64) { return c.Tokens[k].ID, c.Tokens[k].At },
		len(toks), func(i int) (string, models.Centimetres, models.Centimetres, models.Centimetres) {
			t := toks[i]
			return t.ID, t.X, t.Y, max(t.R, 0.5)
		})
	for k, i := range at {
		if i < 0 {
			continue
		}
		f := &c.Tokens[k]
		t := &toks[i]
		f.ID = t.ID
		if at := position(t.X, t.Y); at != nil {
			f.At = at
		}
		if f.Delete {
			gone[i] = true
		} else if f.Kind != nil {
			t.Kind = *f.Kind
		}
	}
	return deleteIndices(toks, gone)
}

// disk returns the added disk, renamed if its id is already taken.
func (a AddDisk) disk(l models.Layout) models.Disk {
	id := a.ID
	for n := 2; ; n++ {
		if _, taken := l.Disk(id); !taken {
			break
		}
		id = fmt.Sprintf("%s-%d", a.ID, n)
	}
	kind := a.Kind
	if kind == "" {
		kind = models.KindCreature
	}
	d := models.Disk{ID: id, Name: a.Name, Owner: a.Owner, Side: a.Side, Faction: a.Faction, Kind: kind,
		X: models.Centimetres(a.X), Y: models.Centimetres(a.Y), R: models.Centimetres(a.R), Z: a.Z,
		Keywords: slices.Clone(a.Keywords)}
	if a.Stats != nil {
		d.Stats = models.Stats{}
		for k, v := range a.Stats {
			d.Stats[k] = v
		}
	}
	return d
}

// matchFixes returns, for each of n fixes (fix k has an id and a
// position), the index of the piece it corrects among m pieces (piece i
// has an id and a circle), -1 for none; each piece is corrected by one fix
// at most. Ids are matched first, for every fix, and only then positions:
// a fix whose piece is out of sight (a hand over it) must not take, by
// position, a piece that another fix finds by its id. A fix with no piece
// of its id takes the unused piece nearest to its position whose centre
// lies within its radius of it (the detector renamed the piece).
func matchFixes(n int, fix func(k int) (string, *[2]float64), m int, piece func(i int) (id string, x, y, r models.Centimetres)) []int {
	out := make([]int, n)
	used := map[int]bool{}
	byID := map[string]int{}
	for i := m - 1; i >= 0; i-- {
		id, _, _, _ := piece(i)
		byID[id] = i // the first piece of an id wins
	}
	for k := range n {
		out[k] = -1
		id, _ := fix(k)
		if i, ok := byID[id]; ok && id != "" && !used[i] {
			out[k], used[i] = i, true
		}
	}
	for k := range n {
		if out[k] >= 0 {
			continue
		}
		_, at := fix(k)
		if i, ok := nearest(m, at, used, func(i int) (x, y, r models.Centimetres) {
			_, x, y, r = piece(i)
			return x, y, r
		}); ok {
			out[k], used[i] = i, true
		}
	}
	return out
}

func nearest(n int, at *[2]float64, used map[int]bool, circle func(int) (x, y, r models.Centimetres)) (int, bool) {
	if at == nil {
		return 0, false
	}
	best, bestD := -1, math.Inf(1)
	for i := range n {
		if used[i] {
			continue
		}
		x, y, r := circle(i)
		d := math.Hypot(float64(x)-at[0], float64(y)-at[1])
		if d <= float64(r) && d < bestD {
			best, bestD = i, d
		}
	}
	return best, best >= 0
}

func deleteIndices[T any](s []T, gone map[int]bool) []T {
	if len(gone) == 0 {
		return s
	}
	out := make([]T, 0, len(s)-len(gone))
	for i, v := range s {
		if !gone[i] {
			out = append(out, v)
		}
	}
	return out
}

// Fix returns the fix for the disk with the given id, creating it (with
// the disk's position when that is within the limits).
func (c *Corrections) Fix(d models.Disk) *DiskFix {
	for i := range c.Disks {
		if c.Disks[i].ID == d.ID {
			return &c.Disks[i]
		}
	}
	c.Disks = append(c.Disks, DiskFix{ID: d.ID, At: position(d.X, d.Y)})
	return &c.Disks[len(c.Disks)-1]
}

// FixToken returns the fix for the token, creating it.
func (c *Corrections) FixToken(t models.Token) *TokenFix {
	for i := range c.Tokens {
		if c.Tokens[i].ID == t.ID {
			return &c.Tokens[i]
		}
	}
	c.Tokens = append(c.Tokens, TokenFix{ID: t.ID, At: position(t.X, t.Y)})
	return &c.Tokens[len(c.Tokens)-1]
}

// RemoveAdded drops an added disk by id, with the fixes made to it, and
// reports whether it was there. Its fixes go too: left behind, they would
// find another disk by id or by position and correct it instead.
func (c *Corrections) RemoveAdded(id string) bool {
	for i, a := range c.Added {
		if a.ID == id {
			c.Added = slices.Delete(c.Added, i, i+1)
			c.Disks = slices.DeleteFunc(c.Disks, func(f DiskFix) bool { return f.ID == id })
			return true
		}
	}
	return false
}

// Restore takes back the deletion of the disk with the given id ("not a
// disk"): each fix of that id loses its Delete flag, and a fix left with
// nothing else to correct is dropped. It reports whether a deletion was
// there.
func (c *Corrections) Restore(id string) bool {
	found := false
	for i := range c.Disks {
		if f := &c.Disks[i]; id != "" && f.ID == id && f.Delete {
			f.Delete, found = false, true
		}
	}
	if found {
		c.Disks = slices.DeleteFunc(c.Disks, func(f DiskFix) bool { return f.ID == id && f.empty() })
	}
	return found
}

// empty reports whether the fix corrects nothing (its id and position
// only find the disk).
func (f DiskFix) empty() bool {
	return !f.Delete && f.Name == nil && f.Owner == nil && f.Side == nil && f.Faction == nil &&
		f.Kind == nil && f.Z == nil && f.R == nil && f.Stats == nil && f.Keywords == nil &&
		f.MissileKind == nil && f.MissileCount == nil
}

// LastAddedNumber returns the largest N of the ids "added-N" the
// corrections hold, in added disks or in fixes (a file written before
// fixes were dropped with their added disk may keep some), 0 when none.
// A new added disk numbered above it reuses no id.
func (c Corrections) LastAddedNumber() int {
	n := 0
	see := func(id string) {
		if rest, ok := strings.CutPrefix(id, addedPrefix); ok {
			if k, err := strconv.Atoi(rest); err == nil {
				n = max(n, k)
			}
		}
	}
	for _, a := range c.Added {
		see(a.ID)
	}
	for _, f := range c.Disks {
		see(f.ID)
	}
	return n
}

// addedPrefix starts the id of every disk added by hand.
const addedPrefix = "added-"
