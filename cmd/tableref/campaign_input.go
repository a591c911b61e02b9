package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"tableref/engine/greatwar"
	"tableref/models"
)

// decodeArmy reads an Esfah army: one JSON object, rejecting unknown
// fields and anything but white space after it (as the ledger reads an
// event), rather than reading the first of several armies alone.
func decodeArmy(data []byte, a any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(a); err != nil {
		return fmt.Errorf("army: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("army: trailing data after the JSON object (give one army)")
	}
	return nil
}

// splitNames reads a comma-separated list of names given with flag:
// each trimmed of spaces, none empty ("chris, dana" names dana, not
// " dana"). An empty list is no names.
func splitNames(flag, list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	names := strings.Split(list, ",")
	for i, n := range names {
		if names[i] = strings.TrimSpace(n); names[i] == "" {
			return nil, usageError("%s %q: name %d is empty (a comma too many?)", flag, list, i+1)
		}
	}
	return names, nil
}

// startingArmy lists a player's disks on the setup table as items, their
// cost the disk's "points". The Undead's free guards (keyword
// "homeland-guard", checked by CheckSetup) are left out: the setup event
// gives the Undead player his "2 free Undead Horde and 2 free Skeleton
// Archers" itself, and listing them too would give him 4 of each.
func startingArmy(l models.Layout, owner string) []greatwar.Item {
	var out []greatwar.Item
	for _, d := range l.Disks {
		if d.IsTerrain() || d.Owner != owner || greatwar.IsHomelandGuard(d) {
			continue
		}
		name := d.Name
		if name == "" {
			name = d.ID
		}
		pts, _ := d.Stat("points")
		out = append(out, greatwar.Item{Name: name, Cost: pts, Faction: strings.TrimSpace(d.Faction), Unique: d.HasKeyword("unique"), Spell: d.Kind == models.KindSpell})
	}
	return out
}

// jsonField is a top-level field of a JSON object, as topField finds it.
type jsonField struct {
	found      bool
	value      json.RawMessage // the value as written
	start, end int             // where the value lies in the object
	open       int             // just after the object's '{'
	fields     int             // how many fields the object has
}

// topField finds the field key of the JSON object obj. Names match as
// encoding/json matches them (case aside, the last one when a name is
// given twice), so the field found is the one the rules will read.
func topField(obj []byte, key string) (jsonField, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return jsonField{}, fmt.Errorf("not a JSON object")
	}
	f := jsonField{open: int(dec.InputOffset())}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jsonField{}, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return jsonField{}, err
		}
		f.fields++
		if name, _ := tok.(string); strings.EqualFold(name, key) {
			end := int(dec.InputOffset())
			if end < len(v) || !bytes.Equal(obj[end-len(v):end], v) {
				return jsonField{}, fmt.Errorf("field %q: cannot find its value in the object", name)
			}
			f.found, f.value, f.start, f.end = true, v, end-len(v), end
		}
	}
	return f, nil
}

// set returns obj with the field's value replaced by val or, when obj
// lacks the field, with the field key: val added first. The rest of obj
// is kept byte for byte.
func (f jsonField) set(obj []byte, key string, val []byte) []byte {
	var b bytes.Buffer
	if f.found {
		b.Write(obj[:f.start])
		b.Write(val)
		b.Write(obj[f.end:])
		return b.Bytes()
	}
	name, _ := json.Marshal(key)
	b.Write(obj[:f.open])
	b.Write(name)
	b.WriteByte(':')
	b.Write(val)
	if f.fields > 0 {
		b.WriteByte(',')
	}
	b.Write(obj[f.open:])
	return b.Bytes()
}

// greatWarSetupFile completes a Great War setup event read with --setup:
// a file that names no "rules_version" is played under the current rules
// (one that names a version keeps it, for the rules to check), and bones
// (--bones) turns the Battle for the Bones on, the file's other options
// kept. Everything else in the file is kept as it is.
func greatWarSetupFile(data []byte, bones bool) ([]byte, error) {
	v, err := topField(data, "rules_version")
	if err != nil {
		return nil, fmt.Errorf("--setup: %w", err)
	}
	if !v.found {
		data = v.set(data, "rules_version", []byte(strconv.Itoa(greatwar.CurrentRules)))
	}
	if !bones {
		return data, nil
	}
	return withBones(data)
}

// withBones turns the Battle for the Bones on in a setup event's options.
// A file that turns it off explicitly contradicts --bones: refused.
func withBones(data []byte) ([]byte, error) {
	o, err := topField(data, "options")
	if err != nil {
		return nil, fmt.Errorf("--setup: %w", err)
	}
	opts := []byte("{}")
	if o.found && string(o.value) != "null" {
		opts = o.value
	}
	b, err := topField(opts, "battle_for_the_bones")
	if err != nil {
		return nil, fmt.Errorf("--setup: options: %w", err)
	}
	if b.found && string(b.value) == "false" {
		return nil, usageError("--bones plays the Battle for the Bones but the --setup file has \"battle_for_the_bones\": false: give one or the other")
	}
	if !b.found || string(b.value) == "null" {
		opts = b.set(opts, "battle_for_the_bones", []byte("true"))
	}
	return o.set(data, "options", opts), nil
}
