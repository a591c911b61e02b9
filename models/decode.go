package models

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// Limits beyond which a layout is rejected as absurd: no playing piece is
// two metres across and no table is a hundred metres long.
const (
	MaxCoordinate Centimetres = 10000 // |x|, |y| of any centre, cm
	MaxRadius     Centimetres = 100   // radius of a disk or token, cm
	MaxDisks                  = 5000
	MaxTokens                 = 20000
	MaxFileBytes              = 64 << 20
	// MaxPixels bounds x, y and r of a layout in pixels ("units": "px"),
	// as it bounds px, py and pr everywhere.
	MaxPixels = 1e6
)

// Units of a layout's table frame (top-level field "units", an
// extension): centimetres unless the layout says pixels, as detect
// writes it without a calibration.
const (
	UnitsCentimetres = "cm"
	UnitsPixels      = "px"
)

// bounds are the limits on a layout's positions and sizes, in its units.
type bounds struct {
	coord, radius Centimetres
	unit          string
}

var (
	cmBounds = bounds{MaxCoordinate, MaxRadius, "cm"}
	pxBounds = bounds{MaxPixels, MaxPixels, "px"}
)

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ErrInvalidLayout is wrapped by every error that rejects a layout's
// content; test for it with errors.Is.
var ErrInvalidLayout = errors.New("invalid layout")

// ValidationError tells what is wrong with a layout and where: the file,
// the object (a disk or token by id and index, or the layout itself), the
// field, and for malformed JSON the line and column.
type ValidationError struct {
	File    string
	Object  string
	Field   string
	Problem string
	Line    int
	Col     int
	// Record is the layout's number in a stream of layouts (1 for the
	// first) and RecordLine the line it starts on; the error names them
	// from the second record on (see Stream).
	Record     int
	RecordLine int
}

// Malformed reports whether the error is one of JSON syntax (the input is
// not JSON there), not a layout that breaks a rule.
func (e *ValidationError) Malformed() bool { return strings.HasPrefix(e.Problem, malformedJSON) }

// malformedJSON starts the Problem of every JSON syntax error.
const malformedJSON = "malformed JSON: "

func (e *ValidationError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d column %d: ", e.Line, e.Col)
	}
	if e.Record > 1 {
		fmt.Fprintf(&b, "record %d (line %d): ", e.Record, e.RecordLine)
	}
	if e.Object != "" {
		b.WriteString(e.Object)
		if e.Field != "" {
			b.WriteString(", field ")
			b.WriteString(strconv.Quote(e.Field))
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Problem)
	return b.String()
}

// Unwrap makes every ValidationError match ErrInvalidLayout.
func (e *ValidationError) Unwrap() error { return ErrInvalidLayout }

// Load reads and validates the layout file at path.
func Load(path string) (Layout, error) {
	f, err := os.Open(path)
	if err != nil {
		return Layout{}, fmt.Errorf("open layout: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads and validates a layout from r; name (a file name, or
// "stdin") is used in error messages.
func Read(r io.Reader, name string) (Layout, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return Layout{}, fmt.Errorf("read layout %s: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return Layout{}, &ValidationError{File: name, Problem: fmt.Sprintf("file is larger than %d MiB", MaxFileBytes>>20)}
	}
	l, err := Parse(data)
	var ve *ValidationError
	if errors.As(err, &ve) {
		ve.File = name
	}
	return l, err
}

// Parse decodes and validates a layout from JSON. Disks and tokens without
// an id are given one ("d3" for the third disk, "t2" for the second token,
// unless that id is taken). Unknown fields are kept in Extra. A UTF-8 byte
// order mark at the start is skipped.
func Parse(data []byte) (Layout, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return Layout{}, syntaxError(data, err)
	}
	if top == nil {
		return Layout{}, &ValidationError{Object: "layout", Problem: "expected a JSON object, got null"}
	}
	o := newObject(top, "layout")
	l := Layout{}
	v, ok, err := o.integer("version")
	switch {
	case err != nil:
		return Layout{}, err
	case !ok:
		// The spec's layouts carry it, but one made by hand may not: with
		// nothing to say otherwise, it is read as the one version there is.
		v = Version
	case v != Version:
		return Layout{}, o.fail("version", fmt.Sprintf("unknown version %d; this program reads version %d", v, Version))
	}
	l.Version = v
	if err := o.units(&l.Units); err != nil {
		return Layout{}, err
	}
	lim := cmBounds
	if l.Units == UnitsPixels {
		lim = pxBounds
	}
	if err := firstError(
		o.str("source", &l.Source),
		o.str("first_player", &l.FirstPlayer),
		o.strings("players", &l.Players),
		o.count("turn", &l.Turn),
		o.table(&l.Table),
	); err != nil {
		return Layout{}, err
	}
	var disks, tokens []json.RawMessage
	if err := firstError(o.list("disks", &disks), o.list("tokens", &tokens)); err != nil {
		return Layout{}, err
	}
	if len(disks) > MaxDisks {
		return Layout{}, o.fail("disks", fmt.Sprintf("%d disks is more than the %d a table can hold", len(disks), MaxDisks))
	}
	if len(tokens) > MaxTokens {
		return Layout{}, o.fail("tokens", fmt.Sprintf("%d tokens is more than the %d a table can hold", len(tokens), MaxTokens))
	}
	l.Extra = o.rest()
	ids := newIDSet()
	for i, raw := range disks {
		d, err := parseDisk(raw, i, lim)
		if err != nil {
			return Layout{}, err
		}
		l.Disks = append(l.Disks, d)
	}
	for i, raw := range tokens {
		t, err := parseToken(raw, i, lim)
		if err != nil {
			return Layout{}, err
		}
		l.Tokens = append(l.Tokens, t)
	}
	if err := ids.assign(&l); err != nil {
		return Layout{}, err
	}
	return l, nil
}

// UnmarshalJSON decodes and validates a layout (see Parse).
func (l *Layout) UnmarshalJSON(data []byte) error {
	p, err := Parse(data)
	if err != nil {
		return err
	}
	*l = p
	return nil
}

func parseDisk(raw json.RawMessage, i int, lim bounds) (Disk, error) {
	o, err := objectAt(raw, fmt.Sprintf("disk at index %d", i))
	if err != nil {
		return Disk{}, err
	}
	d := Disk{}
	if err := o.str("id", &d.ID); err != nil {
		return Disk{}, err
	}
	if d.ID != "" {
		o.where = fmt.Sprintf("disk %q (index %d)", d.ID, i)
	}
	o.lim = lim
	if err := firstError(
		o.circle(&d.X, &d.Y, &d.R),
		o.intInto("z", &d.Z),
		o.pixel(&d.Pixel),
		o.str("name", &d.Name), o.str("owner", &d.Owner), o.str("side", &d.Side),
		o.str("faction", &d.Faction), o.str("kind", &d.Kind), o.str("terrain", &d.Terrain),
		o.str("rim", &d.Rim), o.str("rim_colour", &d.RimColour), o.boolean("flying", &d.Flying),
		o.stats(&d),
		o.strings("keywords", &d.Keywords),
		o.count("damage", &d.Damage), o.count("wounds_taken", &d.WoundsTaken),
		o.boolean("activated", &d.Activated), o.boolean("attacked_last_turn", &d.AttackedLastTurn),
		o.str("target", &d.Target),
		o.str("missile_kind", &d.MissileKind), o.count("missile_count", &d.MissileCount),
	); err != nil {
		return Disk{}, err
	}
	if d.Kind != "" && d.Kind != KindCreature && d.Kind != KindTerrain && d.Kind != KindSpell && d.Kind != KindUnknown {
		return Disk{}, o.fail("kind", fmt.Sprintf("unknown disk kind %q (want creature, terrain, spell or unknown)", d.Kind))
	}
	d.Extra = o.rest()
	return d, nil
}

func parseToken(raw json.RawMessage, i int, lim bounds) (Token, error) {
	o, err := objectAt(raw, fmt.Sprintf("token at index %d", i))
	if err != nil {
		return Token{}, err
	}
	o.lim = lim
	t := Token{}
	if err := o.str("id", &t.ID); err != nil {
		return Token{}, err
	}
	if t.ID != "" {
		o.where = fmt.Sprintf("token %q (index %d)", t.ID, i)
	}
	if err := o.poly(&t.Poly); err != nil {
		return Token{}, err
	}
	if err := o.tokenCircle(&t); err != nil {
		return Token{}, err
	}
	if err := firstError(
		o.str("kind", &t.Kind), o.pixel(&t.Pixel), o.optInt("value", &t.Value),
		o.strings("touches", &t.Touches), o.optInt("z", &t.Z),
	); err != nil {
		return Token{}, err
	}
	if t.Kind == "" {
		t.Kind = KindUnknown
	}
	t.Extra = o.rest()
	return t, nil
}

// tokenCircle decodes a token's enclosing circle: x, y and r as given; or,
// for an outline, the circle around it (with neither x, y nor r), or the
// circle around the given centre x, y that holds every vertex (with no r).
func (o *object) tokenCircle(t *Token) error {
	switch {
	case len(t.Poly) == 0 || o.has("r"):
		return o.circle(&t.X, &t.Y, &t.R)
	case !o.has("x") && !o.has("y"):
		t.X, t.Y, t.R = enclosingCircle(t.Poly)
	default:
		var err error
		if t.X, err = o.coordinate("x"); err != nil {
			return err
		}
		if t.Y, err = o.coordinate("y"); err != nil {
			return err
		}
		t.R = radiusAround(t.Poly, t.X, t.Y)
	}
	o.take("r")
	if t.R > o.lim.radius {
		return o.fail("poly", fmt.Sprintf("an outline %v %s across is absurd (the limit is %v %s)", 2*float64(t.R), o.lim.unit, 2*float64(o.lim.radius), o.lim.unit))
	}
	return nil
}

// radiusAround returns the distance from (x, y) to the farthest vertex
// of poly, at least 1e-3 so that the circle is one.
func radiusAround(poly []TablePoint, x, y Centimetres) Centimetres {
	var r Centimetres
	for _, p := range poly {
		r = max(r, Centimetres(math.Hypot(float64(p.X-x), float64(p.Y-y))))
	}
	return max(r, 1e-3)
}

// enclosingCircle returns a circle around every vertex: centred on the
// bounding box, with the radius to the farthest vertex.
func enclosingCircle(poly []TablePoint) (x, y, r Centimetres) {
	minX, maxX, minY, maxY := poly[0].X, poly[0].X, poly[0].Y, poly[0].Y
	for _, p := range poly[1:] {
		minX, maxX = min(minX, p.X), max(maxX, p.X)
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	x, y = (minX+maxX)/2, (minY+maxY)/2
	return x, y, radiusAround(poly, x, y)
}

// idSet gives ids to disks and tokens that have none and rejects
// duplicates. Disk and token ids share one name space.
type idSet struct{ seen map[string]string }

func newIDSet() *idSet { return &idSet{seen: map[string]string{}} }

func (s *idSet) assign(l *Layout) error {
	for i, d := range l.Disks {
		if err := s.claim(d.ID, fmt.Sprintf("disk %q (index %d)", d.ID, i)); err != nil {
			return err
		}
	}
	for i, t := range l.Tokens {
		if err := s.claim(t.ID, fmt.Sprintf("token %q (index %d)", t.ID, i)); err != nil {
			return err
		}
	}
	for i := range l.Disks {
		if l.Disks[i].ID == "" {
			l.Disks[i].ID = s.fresh("d", i+1)
		}
	}
	for i := range l.Tokens {
		if l.Tokens[i].ID == "" {
			l.Tokens[i].ID = s.fresh("t", i+1)
		}
	}
	return nil
}

func (s *idSet) claim(id, where string) error {
	if id == "" {
		return nil
	}
	if prev, dup := s.seen[id]; dup {
		return &ValidationError{Object: where, Field: "id", Problem: fmt.Sprintf("duplicate id %q, already used by %s", id, prev)}
	}
	s.seen[id] = where
	return nil
}

func (s *idSet) fresh(prefix string, n int) string {
	for {
		id := prefix + strconv.Itoa(n)
		if _, taken := s.seen[id]; !taken {
			s.seen[id] = "generated"
			return id
		}
		n += 1000
	}
}

func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		msg := se.Error()
		if strings.Contains(msg, "unexpected end of JSON input") {
			msg = "the file ends too early (a bracket or quote is not closed)"
		}
		return &ValidationError{Line: line, Col: col, Problem: malformedJSON + msg}
	case errors.As(err, &te):
		return &ValidationError{Object: "layout", Problem: fmt.Sprintf("expected a JSON object, got %s", te.Value)}
	}
	return &ValidationError{Problem: malformedJSON + err.Error()}
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
