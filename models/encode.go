package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// MarshalJSON writes the layout in file format version 1, fields in the
// order of the spec, then the extra fields it was read with.
func (l Layout) MarshalJSON() ([]byte, error) {
	w := &jsonObject{}
	w.put("version", Version)
	w.putNonZero("source", l.Source)
	w.putNonZero("units", l.Units)
	if l.Table != nil {
		t := &jsonObject{}
		t.put("height_cm", l.Table.Height) // the order json gave the old map
		t.put("width_cm", l.Table.Width)
		t.extra(l.Table.Extra)
		if t.err != nil {
			return nil, t.err
		}
		w.putRaw("table", t.bytes())
	}
	w.putNonZero("first_player", l.FirstPlayer)
	if len(l.Players) > 0 {
		w.put("players", l.Players)
	}
	w.putNonZero("turn", l.Turn)
	disks := make([]json.RawMessage, len(l.Disks))
	for i, d := range l.Disks {
		disks[i] = d.marshal()
	}
	tokens := make([]json.RawMessage, len(l.Tokens))
	for i, t := range l.Tokens {
		tokens[i] = t.marshal()
	}
	w.put("disks", disks)
	w.put("tokens", tokens)
	w.extra(l.Extra)
	return w.bytes(), w.err
}

func (d Disk) marshal() json.RawMessage {
	w := &jsonObject{}
	w.put("id", d.ID)
	for _, f := range []struct{ k, v string }{{"name", d.Name}, {"owner", d.Owner}, {"side", d.Side},
		{"faction", d.Faction}, {"kind", d.Kind}, {"terrain", d.Terrain}} {
		w.putNonZero(f.k, f.v)
	}
	w.put("x", d.X)
	w.put("y", d.Y)
	w.put("r", d.R)
	w.put("z", d.Z)
	w.pixel(d.Pixel)
	w.putNonZero("rim", d.Rim)
	w.putNonZero("rim_colour", d.RimColour)
	w.putNonZero("flying", d.Flying)
	if len(d.Stats) > 0 {
		w.put("stats", map[string]int(d.Stats))
	}
	if len(d.Keywords) > 0 {
		w.put("keywords", d.Keywords)
	}
	w.putNonZero("damage", d.Damage)
	w.putNonZero("wounds_taken", d.WoundsTaken)
	w.putNonZero("activated", d.Activated)
	w.putNonZero("attacked_last_turn", d.AttackedLastTurn)
	w.putNonZero("target", d.Target)
	w.putNonZero("missile_kind", d.MissileKind)
	w.putNonZero("missile_count", d.MissileCount)
	w.extra(d.Extra)
	return w.bytes()
}

func (t Token) marshal() json.RawMessage {
	w := &jsonObject{}
	w.put("id", t.ID)
	w.put("kind", t.Kind)
	w.put("x", t.X)
	w.put("y", t.Y)
	w.put("r", t.R)
	if len(t.Poly) > 0 {
		pts := make([][2]Centimetres, len(t.Poly))
		for i, p := range t.Poly {
			pts[i] = [2]Centimetres{p.X, p.Y}
		}
		w.put("poly", pts)
	}
	w.pixel(t.Pixel)
	if t.Value != nil {
		w.put("value", *t.Value)
	}
	if t.Touches != nil {
		w.put("touches", t.Touches)
	}
	if t.Z != nil {
		w.put("z", *t.Z)
	}
	w.extra(t.Extra)
	return w.bytes()
}

// Marshal returns the layout as indented JSON with a final newline.
func Marshal(l Layout) ([]byte, error) {
	raw, err := l.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// Save writes the layout to path atomically (WriteFileAtomic).
func Save(path string, l Layout) error {
	data, err := Marshal(l)
	if err == nil {
		err = WriteFileAtomic(path, data)
	}
	if err != nil {
		return fmt.Errorf("save layout %s: %w", path, err)
	}
	return nil
}

// WriteFileAtomic writes data to path through a temporary file in the
// same folder, synced to the disk, then renamed over path: a crash or a
// full disk leaves the old file or the new one, never half of one. The
// file is readable as any the user writes (0644, not CreateTemp's 0600).
// Every file tableref keeps (layouts, calibrations, corrections,
// campaign exports) is written so.
func WriteFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
}

// jsonObject writes a JSON object with its keys in the order they are put.
type jsonObject struct {
	buf  bytes.Buffer
	keys map[string]bool // keys written so far
	err  error
}

func (w *jsonObject) put(key string, v any) {
	if w.err != nil {
		return
	}
	val, err := json.Marshal(v)
	if err != nil {
		w.err = fmt.Errorf("field %s: %w", key, err)
		return
	}
	w.putRaw(key, val)
}

func (w *jsonObject) putRaw(key string, val []byte) {
	if w.keys == nil {
		w.keys = map[string]bool{}
		w.buf.WriteByte('{')
	} else {
		w.buf.WriteByte(',')
	}
	k, _ := json.Marshal(key)
	w.buf.Write(k)
	w.buf.WriteByte(':')
	w.buf.Write(val)
	w.keys[key] = true
}

func (w *jsonObject) putNonZero(key string, v any) {
	switch x := v.(type) {
	case string:
		if x == "" {
			return
		}
	case int:
		if x == 0 {
			return
		}
	case bool:
		if !x {
			return
		}
	}
	w.put(key, v)
}

func (w *jsonObject) pixel(p *ImageCircle) {
	if p == nil {
		return
	}
	w.put("px", p.PX)
	w.put("py", p.PY)
	w.put("pr", p.PR)
}

// extra writes the fields kept from reading, in name order, leaving out
// any a known field has written (a known field set since wins).
func (w *jsonObject) extra(m map[string]json.RawMessage) {
	keys := make([]string, 0, len(m))
	for k := range m {
		if !w.keys[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		w.putRaw(k, m[k])
	}
}

func (w *jsonObject) bytes() []byte {
	if w.keys == nil {
		return []byte("{}")
	}
	return append(w.buf.Bytes(), '}')
}
