package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// specLayout is the example of shared/spec/table-model.md, "Layout file
// (JSON), version 1", as written there.
const specLayout = `{
  "version": 1,
  "source": "camera:0 frame 1234 | file.png | hand-made",
  "table": {"width_cm": 180, "height_cm": 90},
  "disks": [
    {"id": "d1", "name": "Orc Warband", "owner": "red", "kind": "creature",
     "x": 40.0, "y": 25.5, "r": 3.2, "z": 1,
     "px": 812.4, "py": 433.0, "pr": 51.7,
     "rim": "black", "flying": false,
     "stats": {"attack": 5, "defense": 3, "toughness": 4, "wounds": 1, "movement": 3},
     "keywords": ["berserk"],
     "damage": 0, "wounds_taken": 0, "activated": false}
  ],
  "tokens": [
    {"id": "t1", "kind": "arrow", "x": 41.0, "y": 26.0, "r": 0.9,
     "px": 829.0, "py": 441.0, "pr": 14.0}
  ]
}`

// TestSpecLayoutExample reads the spec's example and checks every value
// it gives, then that writing it and reading it back gives the same
// layout.
func TestSpecLayoutExample(t *testing.T) {
	l, err := Read(strings.NewReader(specLayout), "spec.json")
	if err != nil {
		t.Fatalf("the spec's example is refused: %v", err)
	}
	want := Layout{
		Version: 1,
		Source:  "camera:0 frame 1234 | file.png | hand-made",
		Table:   &TableSize{Width: 180, Height: 90},
		Disks: []Disk{{
			ID: "d1", Name: "Orc Warband", Owner: "red", Kind: KindCreature,
			X: 40, Y: 25.5, R: 3.2, Z: 1,
			Pixel:    &ImageCircle{PX: 812.4, PY: 433, PR: 51.7},
			Rim:      "black",
			Stats:    Stats{"attack": 5, "defense": 3, "toughness": 4, "wounds": 1, "movement": 3},
			Keywords: []string{"berserk"},
		}},
		Tokens: []Token{{
			ID: "t1", Kind: "arrow", X: 41, Y: 26, R: 0.9,
			Pixel: &ImageCircle{PX: 829, PY: 441, PR: 14},
		}},
	}
	if !reflect.DeepEqual(l, want) {
		t.Errorf("read\n %+v\nwant\n %+v", l, want)
	}
	if !l.Tokens[0].IsProjectile() {
		t.Error("the arrow is not a projectile")
	}
	data, err := Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatalf("reading back what was written: %v\n%s", err, data)
	}
	if !reflect.DeepEqual(back, l) {
		t.Errorf("after a round trip\n %+v\nwant\n %+v\n%s", back, l, data)
	}
}

// TestSpecOnlyXYRAreRequired follows "Layout file": "every other disk
// field except x, y, r is optional". A disk with x, y, r alone loads,
// with each optional field alone too (px, py and pr included: the
// circle in pixels is then unknown, but what was given is kept), and
// without x, y or r it is refused naming the field.
func TestSpecOnlyXYRAreRequired(t *testing.T) {
	l, err := Parse([]byte(`{"version": 1, "disks": [{"x": 40, "y": 25.5, "r": 3.2}]}`))
	if err != nil {
		t.Fatalf("a disk with x, y, r only: %v", err)
	}
	if d := l.Disks[0]; d.ID != "d1" || d.Z != 0 || d.Kind != "" || d.Pixel != nil {
		t.Errorf("disk = %+v, want id d1, z 0, no kind, no pixels", d)
	}
	for _, field := range []string{`"id": "a"`, `"name": "Orc"`, `"owner": "red"`, `"side": "evil"`,
		`"faction": "orcs"`, `"kind": "terrain"`, `"terrain": "forest"`, `"z": -2`, `"px": 812.4`, `"py": 433`,
		`"pr": 51.7`, `"px": 812.4, "py": 433`, `"rim": "green"`, `"flying": true`, `"stats": {"attack": 5}`,
		`"keywords": ["berserk"]`, `"damage": 2`, `"wounds_taken": 1`, `"activated": true`,
		`"attacked_last_turn": true`, `"target": "d9"`, `"missile_kind": "arrow"`, `"missile_count": 2`} {
		t.Run(field, func(t *testing.T) {
			in := fmt.Sprintf(`{"version": 1, "disks": [{"x": 40, "y": 25.5, "r": 3.2, %s}]}`, field)
			l, err := Parse([]byte(in))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			data, err := Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			var got, want bytes.Buffer
			if err := json.Compact(&got, data); err != nil {
				t.Fatal(err)
			}
			if err := json.Compact(&want, []byte("{"+field+"}")); err != nil {
				t.Fatal(err)
			}
			if w := strings.Trim(want.String(), "{}"); !strings.Contains(got.String(), w) {
				t.Errorf("written layout lacks %s:\n%s", w, data)
			}
		})
	}
	for _, missing := range []string{"x", "y", "r"} {
		fields := map[string]string{"x": `"x": 40`, "y": `"y": 25.5`, "r": `"r": 3.2`}
		delete(fields, missing)
		var parts []string
		for _, k := range []string{"x", "y", "r"} {
			if f, ok := fields[k]; ok {
				parts = append(parts, f)
			}
		}
		in := `{"version": 1, "disks": [{"id": "a", ` + strings.Join(parts, ", ") + `}]}`
		_, err := Read(strings.NewReader(in), "l.json")
		if want := fmt.Sprintf(`l.json: disk "a" (index 0), field %q: missing`, missing); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("without %s: %v, want %q", missing, err, want)
		}
	}
}

// TestSpecDiskKinds follows "Layout file": "kind of a disk: creature,
// terrain, spell or unknown".
func TestSpecDiskKinds(t *testing.T) {
	for _, kind := range []string{KindCreature, KindTerrain, KindSpell, KindUnknown} {
		if _, err := Parse([]byte(`{"version": 1, "disks": [{"x": 1, "y": 1, "r": 1, "kind": "` + kind + `"}]}`)); err != nil {
			t.Errorf("kind %q refused: %v", kind, err)
		}
	}
	if _, err := Parse([]byte(`{"version": 1, "disks": [{"x": 1, "y": 1, "r": 1, "kind": "wizard"}]}`)); err == nil {
		t.Error(`kind "wizard" accepted`)
	}
}

// TestSpecTokenFields follows "A token": kind defaults to unknown, value
// is an optional integer, touches an optional list of disk ids whose
// absence (nil) differs from an empty list (vision saw no disk).
func TestSpecTokenFields(t *testing.T) {
	l, err := Parse([]byte(`{"version": 1, "tokens": [
		{"x": 1, "y": 1, "r": 0.5},
		{"kind": "damage", "x": 1, "y": 1, "r": 0.5, "value": 3, "touches": []},
		{"kind": "gold", "x": 1, "y": 1, "r": 0.5, "value": 0, "touches": ["d1"], "poly": [[0.5, 0.5], [1.5, 0.5], [1, 1.5]]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := l.Tokens[0], l.Tokens[1], l.Tokens[2]
	if a.Kind != KindUnknown || a.Value != nil || a.Touches != nil {
		t.Errorf("bare token = %+v, want kind unknown, no value, touches absent", a)
	}
	if b.Value == nil || *b.Value != 3 || b.Touches == nil || len(b.Touches) != 0 {
		t.Errorf("damage token = %+v, want value 3 and an empty touches list", b)
	}
	if c.Value == nil || *c.Value != 0 || len(c.Poly) != 3 || c.R != 0.5 {
		t.Errorf("gold token = %+v, want value 0, its outline and r as given", c)
	}
	data, err := Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil || !reflect.DeepEqual(back, l) {
		t.Errorf("round trip: %v\n%+v\nwant\n%+v", err, back.Tokens, l.Tokens)
	}
}
