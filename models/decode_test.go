package models

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodLayout = `{
  "version": 1,
  "source": "hand-made",
  "table": {"width_cm": 180, "height_cm": 90},
  "first_player": "red",
  "disks": [
    {"id": "d1", "name": "Orc Warband", "owner": "red", "kind": "creature",
     "x": 40.0, "y": 25.5, "r": 3.2, "z": 1,
     "px": 812.4, "py": 433.0, "pr": 51.7,
     "rim": "black", "flying": false,
     "stats": {"attack": 5, "defense": 3, "toughness": 4, "wounds": 1, "movement": 3},
     "keywords": ["berserk"],
     "damage": 0, "wounds_taken": 0, "activated": false, "painted_by": "Ann"}
  ],
  "tokens": [
    {"id": "t1", "kind": "arrow", "x": 41.0, "y": 26.0, "r": 0.9,
     "px": 829.0, "py": 441.0, "pr": 14.0}
  ],
  "weather": {"rain": true}
}`

func TestParseTheSpecExample(t *testing.T) {
	l, err := Parse([]byte(goodLayout))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	d := l.Disks[0]
	if d.ID != "d1" || d.X != 40 || d.Y != 25.5 || d.R != 3.2 || d.Z != 1 || d.Owner != "red" {
		t.Errorf("disk = %+v", d)
	}
	if d.Pixel == nil || d.Pixel.PR != 51.7 {
		t.Errorf("pixel circle = %+v, want pr 51.7", d.Pixel)
	}
	if d.Stats["toughness"] != 4 || !d.HasKeyword("BERSERK") {
		t.Errorf("stats %v keywords %v", d.Stats, d.Keywords)
	}
	if string(d.Extra["painted_by"]) != `"Ann"` {
		t.Errorf("unknown disk field not kept: %v", d.Extra)
	}
	if _, ok := l.Extra["weather"]; !ok {
		t.Errorf("unknown top-level field not kept: %v", l.Extra)
	}
	if l.Table == nil || l.Table.Width != 180 || l.FirstPlayer != "red" {
		t.Errorf("table %+v first player %q", l.Table, l.FirstPlayer)
	}
	if !l.Tokens[0].IsProjectile() {
		t.Errorf("an arrow must be a projectile")
	}
}

func TestRoundTripLosesNothing(t *testing.T) {
	l, err := Parse([]byte(goodLayout))
	if err != nil {
		t.Fatal(err)
	}
	data, err := Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Parse(data)
	if err != nil {
		t.Fatalf("reading back what we wrote: %v\n%s", err, data)
	}
	data2, err := Marshal(again)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, data2) {
		t.Errorf("second round trip differs:\n%s\n---\n%s", data, data2)
	}
	for _, want := range []string{`"painted_by": "Ann"`, `"weather"`, `"px": 812.4`, `"keywords"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("written layout lacks %s:\n%s", want, data)
		}
	}
}

func TestParseRejectsBadLayouts(t *testing.T) {
	disk := func(fields string) string {
		return `{"version": 1, "disks": [{"id": "a", "x": 1, "y": 2, "r": 3}, {` + fields + `}]}`
	}
	tests := []struct {
		name string
		in   string
		want []string // every piece must appear in the message
	}{
		{"malformed JSON", "{\"version\": 1,\n \"disks\": [}", []string{"bad.json:2:", "malformed JSON"}},
		{"a truncated file", `{"version": 1, "disks": [`, []string{"malformed JSON", "ends too early"}},
		{"not an object", `[1, 2]`, []string{"expected a JSON object"}},
		{"null", `null`, []string{"expected a JSON object"}},
		{"unknown version", `{"version": 2, "disks": []}`, []string{"unknown version 2"}},
		{"version as a string", `{"version": "1"}`, []string{"version", "must be a number"}},
		{"duplicate ids", disk(`"id": "a", "x": 5, "y": 5, "r": 2`), []string{`disk "a" (index 1)`, `"id"`, `duplicate id "a"`, "index 0"}},
		{"missing x", disk(`"id": "b", "y": 5, "r": 2`), []string{`disk "b" (index 1)`, `"x"`, "missing"}},
		{"missing r without id", disk(`"x": 1, "y": 5`), []string{"disk at index 1", `"r"`, "missing"}},
		{"x not finite", disk(`"id": "b", "x": 1e999, "y": 5, "r": 2`), []string{`"x"`, "finite"}},
		{"y as a string", disk(`"id": "b", "x": 1, "y": "5", "r": 2`), []string{`"y"`, "must be a number"}},
		{"r zero", disk(`"id": "b", "x": 1, "y": 5, "r": 0`), []string{`"r"`, "greater than 0"}},
		{"r negative", disk(`"id": "b", "x": 1, "y": 5, "r": -2`), []string{`"r"`, "greater than 0"}},
		{"absurd radius", disk(`"id": "b", "x": 1, "y": 5, "r": 5000`), []string{`"r"`, "absurd"}},
		{"absurd position", disk(`"id": "b", "x": 1e7, "y": 5, "r": 2`), []string{`"x"`, "absurd"}},
		{"z not whole", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "z": 1.5`), []string{`"z"`, "whole number"}},
		{"negative damage", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "damage": -1`), []string{`"damage"`, "negative"}},
		{"stats not numbers", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "stats": {"attack": "high"}`), []string{`"stats.attack"`}},
		{"unknown disk kind", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "kind": "dragon"`), []string{`"kind"`, "unknown disk kind"}},
		{"pixels as a string", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "px": "3"`), []string{`"px"`, "must be a number"}},
		{"a pixel radius of zero", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "px": 3, "py": 4, "pr": 0`), []string{`"pr"`, "greater than 0"}},
		{"a negative pixel radius alone", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "pr": -3`), []string{`"pr"`, "greater than 0"}},
		{"disk is not an object", `{"version": 1, "disks": [3]}`, []string{"disk at index 0", "expected a JSON object"}},
		{"disks is not a list", `{"version": 1, "disks": {}}`, []string{`"disks"`, "must be a list"}},
		{"token without r", `{"version": 1, "tokens": [{"id": "t", "x": 1, "y": 1}]}`, []string{`token "t" (index 0)`, `"r"`}},
		{"token id taken by a disk", `{"version": 1, "disks": [{"id": "a", "x": 1, "y": 2, "r": 3}], "tokens": [{"id": "a", "x": 1, "y": 1, "r": 1}]}`, []string{"duplicate id"}},
		{"bad polygon", `{"version": 1, "tokens": [{"id": "t", "poly": [[0, 0], [1, 1]]}]}`, []string{`"poly"`, "at least 3"}},
		{"a null among keywords", disk(`"id": "b", "x": 1, "y": 5, "r": 2, "keywords": ["berserk", null]`), []string{`"keywords"`, "list of strings", "null at index 1"}},
		{"a number among a token's touches", `{"version": 1, "tokens": [{"id": "t", "x": 1, "y": 1, "r": 1, "touches": ["a", 2]}]}`, []string{`token "t" (index 0)`, `"touches"`, "the number 2 at index 1"}},
		{"a negative turn", `{"version": 1, "turn": -3}`, []string{`layout, field "turn"`, "negative"}},
		{"polygon points as strings", `{"version": 1, "tokens": [{"id": "t", "poly": [["0", "0"], [1, 0], [0, 1]]}]}`, []string{`token "t" (index 0)`, `"poly"`, "[x, y] pairs"}},
		{"a null in a polygon point", `{"version": 1, "tokens": [{"id": "t", "poly": [[null, 0], [1, 0], [0, 1]]}]}`, []string{`"poly"`, "point 0"}},
		{"a polygon point beyond float64", `{"version": 1, "tokens": [{"id": "t", "poly": [[1e400, 0], [1, 0], [0, 1]]}]}`, []string{`"poly"`}},
		{"table with no width", `{"version": 1, "table": {"height_cm": 90}}`, []string{"table", `"width_cm"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "bad.json")
			if err == nil {
				t.Fatalf("no error, want one mentioning %q", tc.want)
			}
			if !errors.Is(err, ErrInvalidLayout) {
				t.Errorf("error %v does not wrap ErrInvalidLayout", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "bad.json") {
				t.Errorf("error %q does not name the file", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

func TestParseFillsDefaults(t *testing.T) {
	l, err := Parse([]byte(`{"version": 1,
		"disks": [{"x": 1, "y": 2, "r": 3}, {"id": "d1", "x": 9, "y": 2, "r": 3}],
		"tokens": [{"x": 1, "y": 1, "r": 0.5}, {"kind": "arrow", "poly": [[0,0],[2,0],[2,1],[0,1]]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if l.Disks[0].ID == "" || l.Disks[0].ID == "d1" {
		t.Errorf("generated id %q must be new and not collide with d1", l.Disks[0].ID)
	}
	if l.Tokens[0].ID != "t1" || l.Tokens[0].Kind != KindUnknown {
		t.Errorf("token = %+v, want id t1, kind unknown", l.Tokens[0])
	}
	if tk := l.Tokens[1]; tk.X != 1 || tk.Y != 0.5 || tk.R < 1.11 || tk.R > 1.12 {
		t.Errorf("enclosing circle of the polygon = (%v, %v, %v), want (1, 0.5, 1.118)", tk.X, tk.Y, tk.R)
	}
}

func TestSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.json")
	l, err := Parse([]byte(goodLayout))
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(path, l); err != nil {
		t.Fatal(err)
	}
	back, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Disks) != 1 || back.Disks[0].Name != "Orc Warband" {
		t.Errorf("loaded %+v", back.Disks)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("save left %d files in the folder, want 1", len(entries))
	}
	if _, err := Load(filepath.Join(dir, "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("loading a missing file: %v, want an error naming it", err)
	}
}

func TestKeywordsAndTeams(t *testing.T) {
	d := Disk{Keywords: []string{"Spellcaster:2", "swift:counter"}, Owner: "ann"}
	if n, ok := d.KeywordValue("spellcaster"); !ok || n != 2 {
		t.Errorf("spellcaster = %d, %v; want 2, true", n, ok)
	}
	if d.HasKeyword("swift") {
		t.Errorf(`"swift:counter" must not count as "swift"`)
	}
	tests := []struct {
		a, b Disk
		want bool
	}{
		{Disk{Owner: "ann"}, Disk{Owner: "bob"}, true},
		{Disk{Owner: "ann", Side: "good"}, Disk{Owner: "bob", Side: "good"}, false},
		{Disk{Owner: "ann"}, Disk{Owner: "ann"}, false},
		{Disk{}, Disk{Owner: "bob"}, false},
	}
	for _, tc := range tests {
		if got := Enemies(tc.a, tc.b); got != tc.want {
			t.Errorf("Enemies(%+v, %+v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if k, ok := ProjectileKind("Boule de feu"); !ok || k != "fireball" {
		t.Errorf("ProjectileKind(Boule de feu) = %q, %v", k, ok)
	}
}

func TestCloneIsDeep(t *testing.T) {
	l, err := Parse([]byte(goodLayout))
	if err != nil {
		t.Fatal(err)
	}
	c := l.Clone()
	c.Disks[0].Stats["attack"] = 99
	c.Disks[0].Keywords[0] = "changed"
	c.Disks[0].Pixel.PX = 0
	if l.Disks[0].Stats["attack"] != 5 || l.Disks[0].Keywords[0] != "berserk" || l.Disks[0].Pixel.PX == 0 {
		t.Errorf("changing the clone changed the original")
	}
}

func TestMissileCountInsideStatsReachesTheDisk(t *testing.T) {
	l, err := Parse([]byte(`{"version": 1, "disks": [{"id": "a", "x": 1, "y": 1, "r": 2,
		"stats": {"attack": 2, "missile_count": 3, "missile_kind": "arrow", "wounds": null}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	d := l.Disks[0]
	if d.MissileCount != 3 || d.MissileKind != "arrow" {
		t.Errorf("missiles %d %q, want 3 arrow", d.MissileCount, d.MissileKind)
	}
	if _, ok := d.Stats["missile_count"]; ok {
		t.Errorf("missile_count left in stats: %v", d.Stats)
	}
	if _, ok := d.Stats["wounds"]; ok {
		t.Errorf("a null stat was kept: %v", d.Stats)
	}
	data, err := Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil || back.Disks[0].MissileCount != 3 {
		t.Errorf("after a round trip: %v, %d missiles; want 3", err, back.Disks[0].MissileCount)
	}
}

func TestAnOutlineTooLargeIsRefused(t *testing.T) {
	_, err := Parse([]byte(`{"version": 1, "tokens": [{"kind": "arrow", "poly": [[0, 0], [500, 0], [0, 500]]}]}`))
	if err == nil || !strings.Contains(err.Error(), `"poly"`) {
		t.Errorf("got %v, want an error about the poly's size", err)
	}
}

// TestPixelLayoutsHavePixelLimits: detect without a calibration writes
// "units": "px" and pixels in x, y, r; such a layout loads with pixel-sized
// limits, while a layout in centimetres keeps the centimetre ones.
func TestPixelLayoutsHavePixelLimits(t *testing.T) {
	tests := []struct {
		name, input string
		want        string // error substring, "" for accepted
	}{
		{"a detect-style pixel layout", `{"version": 1, "units": "px", "disks": [{"x": 4000, "y": 1200, "r": 123.5, "px": 4000, "py": 1200, "pr": 123.5}],
			"tokens": [{"kind": "arrow", "x": 3990, "y": 1180, "r": 20}]}`, ""},
		{"a pixel token outline", `{"version": 1, "units": "px", "tokens": [{"poly": [[3000, 0], [3400, 0], [3000, 300]]}]}`, ""},
		{"centimetres said outright", `{"version": 1, "units": "cm", "disks": [{"x": 40, "y": 12, "r": 3}]}`, ""},
		{"a centimetre disk 123.5 across", `{"version": 1, "disks": [{"x": 40, "y": 12, "r": 123.5}]}`, `field "r": 123.5 cm is absurd (the limit is 100 cm)`},
		{"cm said outright, r 123.5", `{"version": 1, "units": "cm", "disks": [{"x": 40, "y": 12, "r": 123.5}]}`, `123.5 cm is absurd`},
		{"a pixel radius beyond a million", `{"version": 1, "units": "px", "disks": [{"x": 0, "y": 0, "r": 2e6}]}`, `2e+06 px is absurd`},
		{"a pixel coordinate beyond a million", `{"version": 1, "units": "px", "disks": [{"x": 2e6, "y": 0, "r": 2}]}`, `px is absurd (the table frame ends at ±1e+06 px)`},
		{"unknown units", `{"version": 1, "units": "mm"}`, `layout, field "units": unknown units "mm" (want "cm" or "px")`},
		{"units not a string", `{"version": 1, "units": 10}`, `field "units": must be a string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.input))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	l, err := Parse([]byte(`{"version": 1, "units": "px", "disks": [{"x": 4000, "y": 1200, "r": 123.5}]}`))
	if err != nil || l.Units != UnitsPixels || l.Disks[0].R != 123.5 {
		t.Fatalf("units %q disks %+v (%v)", l.Units, l.Disks, err)
	}
	if data, _ := Marshal(l); !strings.Contains(string(data), `"units": "px"`) {
		t.Errorf("units lost on writing:\n%s", data)
	}
}

func TestAByteOrderMarkIsSkipped(t *testing.T) {
	l, err := Read(strings.NewReader("\uFEFF"+goodLayout), "bom.json")
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if len(l.Disks) != 1 || l.Source != "hand-made" {
		t.Errorf("read %+v", l)
	}
}

func TestUnknownTableFieldsAreKept(t *testing.T) {
	in := `{"version": 1, "table": {"width_cm": 180, "height_cm": 90, "cloth": "green", "grid": {"cm": 5}}}`
	l, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	c := l.Clone()
	c.Table.Extra["cloth"] = []byte(`"red"`)
	data, err := Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"cloth": "green"`, `"grid": {`, `"height_cm": 90`, `"width_cm": 180`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("written layout lacks %s:\n%s", want, data)
		}
	}
}

func TestATokenOutlineGetsItsRadius(t *testing.T) {
	square := `[[0, 0], [4, 0], [4, 4], [0, 4]]`
	tests := []struct {
		name, token string
		x, y, r     Centimetres
	}{
		{"outline alone: the circle around it", `{"poly": ` + square + `}`, 2, 2, Centimetres(math.Hypot(2, 2))},
		{"outline and centre: the circle around that centre", `{"x": 1, "y": 1, "poly": ` + square + `}`, 1, 1, Centimetres(math.Hypot(3, 3))},
		{"outline and circle: as given", `{"x": 2, "y": 2, "r": 3.5, "poly": ` + square + `}`, 2, 2, 3.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := Parse([]byte(`{"version": 1, "tokens": [` + tc.token + `]}`))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			tok := l.Tokens[0]
			if tok.X != tc.x || tok.Y != tc.y || math.Abs(float64(tok.R-tc.r)) > 1e-12 {
				t.Errorf("circle (%v, %v) r %v, want (%v, %v) r %v", tok.X, tok.Y, tok.R, tc.x, tc.y, tc.r)
			}
			if _, ok := tok.Extra["r"]; ok {
				t.Errorf("r kept as an unknown field: %v", tok.Extra)
			}
		})
	}
	for _, bad := range []struct{ token, want string }{
		{`{"x": 1, "poly": ` + square + `}`, `field "y": missing`},
		{`{"x": 1, "y": 1, "poly": [[0, 0], [300, 0], [0, 300]]}`, `field "poly": an outline`},
	} {
		if _, err := Parse([]byte(`{"version": 1, "tokens": [` + bad.token + `]}`)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("token %s: error %v, want %q", bad.token, err, bad.want)
		}
	}
}

// TestLayoutWithoutVersionIsVersion1: the table model's layouts are
// "version 1" (shared/spec/table-model.md, "Layout file (JSON), version
// 1"); a hand-made layout that leaves the field out is read as that
// version, and written back with it.
func TestLayoutWithoutVersionIsVersion1(t *testing.T) {
	l, err := Parse([]byte(`{"disks": [{"id": "a", "x": 1, "y": 2, "r": 3}]}`))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if l.Version != Version || len(l.Disks) != 1 || l.Disks[0].R != 3 {
		t.Fatalf("got version %d, %d disks; want version %d and the disk", l.Version, len(l.Disks), Version)
	}
	out, err := Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"version": 1`)) {
		t.Errorf("written back without its version: %s", out)
	}
}
