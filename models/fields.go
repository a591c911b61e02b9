package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// object decodes the fields of one JSON object one by one, so that every
// error names the object and the field, and what is left over is kept.
type object struct {
	raw   map[string]json.RawMessage
	used  map[string]bool
	where string
	lim   bounds // limits on positions and sizes, in the layout's units
}

func newObject(raw map[string]json.RawMessage, where string) *object {
	return &object{raw: raw, used: map[string]bool{}, where: where, lim: cmBounds}
}

func objectAt(raw json.RawMessage, where string) (*object, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, &ValidationError{Object: where, Problem: "expected a JSON object, got " + jsonKind(raw)}
	}
	return newObject(m, where), nil
}

func (o *object) fail(field, problem string) error {
	return &ValidationError{Object: o.where, Field: field, Problem: problem}
}

// has reports whether the field is present and not null.
func (o *object) has(field string) bool {
	v, ok := o.raw[field]
	return ok && !isNull(v)
}

// take returns the raw value of a present, non-null field and marks it used.
func (o *object) take(field string) (json.RawMessage, bool) {
	v, ok := o.raw[field]
	o.used[field] = true
	if !ok || isNull(v) {
		return nil, false
	}
	return v, true
}

// rest returns the fields not decoded, nil when there are none.
func (o *object) rest() map[string]json.RawMessage {
	var m map[string]json.RawMessage
	for k, v := range o.raw {
		if !o.used[k] {
			if m == nil {
				m = map[string]json.RawMessage{}
			}
			m[k] = v
		}
	}
	return m
}

// number decodes a finite number.
func (o *object) number(field string) (float64, bool, error) {
	v, ok := o.take(field)
	if !ok {
		return 0, false, nil
	}
	if len(v) == 0 || !(v[0] == '-' || (v[0] >= '0' && v[0] <= '9')) {
		return 0, true, o.fail(field, "must be a number, got "+jsonKind(v))
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, true, o.fail(field, fmt.Sprintf("must be a finite number, got %s", v))
	}
	return f, true, nil
}

func (o *object) integer(field string) (int, bool, error) {
	f, ok, err := o.number(field)
	if err != nil || !ok {
		return 0, ok, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e9 {
		return 0, true, o.fail(field, fmt.Sprintf("must be a whole number, got %v", f))
	}
	return int(f), true, nil
}

// intInto decodes a whole number into dst when the field is present,
// leaving dst as it is otherwise.
func (o *object) intInto(field string, dst *int) error {
	v, ok, err := o.integer(field)
	if ok && err == nil {
		*dst = v
	}
	return err
}

// count decodes a whole number that cannot be negative into dst when the
// field is present, leaving dst as it is otherwise.
func (o *object) count(field string, dst *int) error {
	v, ok, err := o.integer(field)
	if err == nil && v < 0 {
		err = o.fail(field, fmt.Sprintf("cannot be negative, got %d", v))
	}
	if ok && err == nil {
		*dst = v
	}
	return err
}

func (o *object) optInt(field string, dst **int) error {
	v, ok, err := o.integer(field)
	if ok && err == nil {
		*dst = &v
	}
	return err
}

func (o *object) str(field string, dst *string) error {
	v, ok := o.take(field)
	if !ok {
		return nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return o.fail(field, "must be a string, got "+jsonKind(v))
	}
	return nil
}

func (o *object) boolean(field string, dst *bool) error {
	v, ok := o.take(field)
	if !ok {
		return nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return o.fail(field, "must be true or false, got "+jsonKind(v))
	}
	return nil
}

// strings decodes a list of strings; a null in it is refused, not read
// as "".
func (o *object) strings(field string, dst *[]string) error {
	v, ok := o.take(field)
	if !ok {
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(v, &items); err != nil {
		return o.fail(field, "must be a list of strings, got "+jsonKind(v))
	}
	out := make([]string, len(items))
	for i, item := range items {
		if len(item) == 0 || item[0] != '"' || json.Unmarshal(item, &out[i]) != nil {
			return o.fail(field, fmt.Sprintf("must be a list of strings, got %s at index %d", jsonKind(item), i))
		}
	}
	*dst = out
	return nil
}

func (o *object) list(field string, dst *[]json.RawMessage) error {
	v, ok := o.take(field)
	if !ok {
		return nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return o.fail(field, "must be a list, got "+jsonKind(v))
	}
	return nil
}

// length decodes a required, finite, positive length in the object's
// units (centimetres unless the layout is in pixels) no larger than limit.
func (o *object) length(field string, limit Centimetres) (Centimetres, error) {
	f, ok, err := o.number(field)
	unit := o.lim.unit
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return 0, o.fail(field, fmt.Sprintf("missing (a length in %s is required)", unit))
	case f <= 0:
		return 0, o.fail(field, fmt.Sprintf("must be greater than 0, got %v", f))
	case Centimetres(f) > limit:
		return 0, o.fail(field, fmt.Sprintf("%v %s is absurd (the limit is %v %s)", f, unit, limit, unit))
	}
	return Centimetres(f), nil
}

// coordinate decodes a required, finite coordinate in the object's units.
func (o *object) coordinate(field string) (Centimetres, error) {
	f, ok, err := o.number(field)
	unit := o.lim.unit
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return 0, o.fail(field, fmt.Sprintf("missing (a coordinate in %s is required)", unit))
	case math.Abs(f) > float64(o.lim.coord):
		return 0, o.fail(field, fmt.Sprintf("%v %s is absurd (the table frame ends at ±%v %s)", f, unit, o.lim.coord, unit))
	}
	return Centimetres(f), nil
}

// units decodes the layout's units: "cm" (or absent) or "px".
func (o *object) units(dst *string) error {
	if err := o.str("units", dst); err != nil {
		return err
	}
	switch *dst {
	case "", UnitsCentimetres, UnitsPixels:
		return nil
	}
	return o.fail("units", fmt.Sprintf("unknown units %q (want %q or %q)", *dst, UnitsCentimetres, UnitsPixels))
}

func (o *object) circle(x, y, r *Centimetres) error {
	var err error
	if *x, err = o.coordinate("x"); err != nil {
		return err
	}
	if *y, err = o.coordinate("y"); err != nil {
		return err
	}
	*r, err = o.length("r", o.lim.radius)
	return err
}

// pixel decodes px, py, pr into the circle in pixels when all three are
// present. Each is optional (the table model: every disk field but x, y,
// r): with one or two of them given, each must still be a number of
// pixels, and they are kept as written among the unknown fields, the
// circle itself being unknown.
func (o *object) pixel(dst **ImageCircle) error {
	var p ImageCircle
	all := o.has("px") && o.has("py") && o.has("pr")
	for _, f := range []struct {
		name string
		v    *float64
	}{{"px", &p.PX}, {"py", &p.PY}, {"pr", &p.PR}} {
		v, ok, err := o.number(f.name)
		switch {
		case err != nil:
			return err
		case math.Abs(v) > 1e6:
			return o.fail(f.name, fmt.Sprintf("%v pixels is absurd", v))
		case f.name == "pr" && ok && v <= 0:
			return o.fail("pr", fmt.Sprintf("must be greater than 0, got %v", v))
		}
		*f.v = v
		if !all {
			o.used[f.name] = !ok // kept as written; a null is dropped
		}
	}
	if all {
		*dst = &p
	}
	return nil
}

func (o *object) table(dst **TableSize) error {
	v, ok := o.take("table")
	if !ok {
		return nil
	}
	t, err := objectAt(v, "table")
	if err != nil {
		return err
	}
	var s TableSize
	if s.Width, err = t.length("width_cm", MaxCoordinate); err != nil {
		return err
	}
	if s.Height, err = t.length("height_cm", MaxCoordinate); err != nil {
		return err
	}
	s.Extra = t.rest()
	*dst = &s
	return nil
}

// stats decodes the stats object: whole numbers by name. A string
// "missile_kind" inside stats is accepted and moved to the disk.
func (o *object) stats(d *Disk) error {
	v, ok := o.take("stats")
	if !ok {
		return nil
	}
	s, err := objectAt(v, o.where+", stats")
	if err != nil {
		return err
	}
	d.Stats = Stats{}
	for name, raw := range s.raw {
		if isNull(raw) {
			continue // a stat given as null is a stat not given
		}
		if name == "missile_kind" && len(raw) > 0 && raw[0] == '"' {
			if err := s.str(name, &d.MissileKind); err != nil {
				return err
			}
			continue
		}
		n, _, err := s.integer(name)
		if err != nil {
			return o.fail("stats."+name, fmt.Sprintf("must be a whole number, got %s", raw))
		}
		d.Stats[name] = n
	}
	if n, ok := d.Stats["missile_count"]; ok {
		// Moved to the disk's own field (a top-level one, read after, wins).
		d.MissileCount = n
		delete(d.Stats, "missile_count")
	}
	return nil
}

func (o *object) poly(dst *[]TablePoint) error {
	v, ok := o.take("poly")
	if !ok {
		return nil
	}
	var pts [][]*float64 // numbers only: not "1" as a string, nor 1e400; nil for null
	if err := json.Unmarshal(v, &pts); err != nil {
		return o.fail("poly", "must be a list of [x, y] pairs in "+o.lim.unit)
	}
	if len(pts) < 3 {
		return o.fail("poly", fmt.Sprintf("an outline needs at least 3 points, got %d", len(pts)))
	}
	out := make([]TablePoint, len(pts))
	for i, p := range pts {
		if len(p) != 2 {
			return o.fail("poly", fmt.Sprintf("point %d must be [x, y], got %d numbers", i, len(p)))
		}
		if p[0] == nil || p[1] == nil || math.Abs(*p[0]) > float64(o.lim.coord) || math.Abs(*p[1]) > float64(o.lim.coord) {
			return o.fail("poly", fmt.Sprintf("point %d is not a finite point inside the table frame", i))
		}
		out[i] = TablePoint{Centimetres(*p[0]), Centimetres(*p[1])}
	}
	*dst = out
	return nil
}

func isNull(v json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

// jsonKind names the JSON type of a raw value for error messages.
func jsonKind(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string " + string(v)
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "the number " + string(v)
}
