package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"tableref/engine/battle9"
	"tableref/vision/synth"
)

// writeBoardFrames renders a board scene (640x480) holding each
// occupancy, one PNG each, and returns their paths.
func writeBoardFrames(t *testing.T, seed uint64, occs ...battle9.Occupancy) []string {
	t.Helper()
	s, err := synth.NewBoard9(seed, synth.Easy, synth.Board9Options{Width: 640, Height: 480})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var paths []string
	for i, o := range occs {
		var c synth.Board9Cells
		for sq, v := range o {
			c[sq] = uint8(v)
		}
		img, err := s.Render(c, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "frame"+string(rune('0'+i))+".png")
		writePNG(t, p, img)
		paths = append(paths, p)
	}
	return paths
}

func occupancyOf(t *testing.T, text string) battle9.Occupancy {
	t.Helper()
	o, err := battle9.ParseOccupancy(text)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// The position of docs/battle9.md's infer example: a Warrior on e2 in
// front of its King, the orc King on e9.
const cameraPosition = "dwarfs:orcs 4k4/9/9/9/9/9/9/4W4/4K4 1"

func TestBattle9CameraCLI(t *testing.T) {
	before := occupancyOf(t, "....2..../9/9/9/9/9/9/....1..../....1....")
	after := occupancyOf(t, "....2..../9/9/9/9/9/....1..../9/....1....")   // e2-e3
	illegal := occupancyOf(t, "....2..../9/9/9/....1..../9/9/9/....1....") // e2 to e5: a Warrior steps one square
	// Scene 5 gives the first player the darker army.
	paths := writeBoardFrames(t, 5, before, after, illegal)
	cases := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"read finds the board and its pieces", []string{"battle9", "read", paths[0]}, 0,
			[]string{"grid: 100 of 100 intersections seen", "occupancy: "}},
		{"--dark-first takes the darker army as the first player's", []string{"battle9", "read", "--dark-first", paths[0]}, 0,
			[]string{"occupancy: " + before.String()}},
		{"read with a learned setup says which side each piece is", []string{"battle9", "read", "--learn", paths[0], "--position", cameraPosition, paths[1]}, 0,
			[]string{"occupancy: " + after.String(), "3  . . . . 1 . . . ."}},
		{"move infers the move between two frames", []string{"battle9", "move", paths[0], paths[1], cameraPosition}, 0,
			[]string{"move played: e2-e3", "dwarfs:orcs 4k4/9/9/9/9/9/4W4/9/4K4 2"}},
		{"move flags an illegal change", []string{"battle9", "move", paths[0], paths[2], cameraPosition}, 1,
			[]string{"the change is not a legal move", "changed: e2 e5", "ask the players"}},
		{"move with no change says so", []string{"battle9", "move", paths[0], paths[0], cameraPosition}, 1,
			[]string{"no move seen"}},
		{"read needs an image", []string{"battle9", "read"}, 2, []string{"read takes one image"}},
		{"--learn needs --position", []string{"battle9", "read", "--learn", paths[0], paths[1]}, 2, []string{"go together"}},
		{"move needs three arguments", []string{"battle9", "move", paths[0], paths[1]}, 2, []string{"move takes BEFORE AFTER POSITION"}},
		{"a missing frame is an error", []string{"battle9", "read", filepath.Join(t.TempDir(), "none.png")}, 1, []string{"none.png"}},
		{"view needs a position", []string{"battle9", "view"}, 2, []string{"view takes one POSITION"}},
		{"view refuses a bad --last", []string{"battle9", "view", "--last", "e2e3", cameraPosition}, 2, []string{"--last"}},
		{"the referee's actions still work", []string{"battle9", "infer", cameraPosition, after.String()}, 0, []string{"move played: e2-e3"}},
		{"help lists the camera actions", []string{"help", "battle9"}, 0, []string{"read [--calibration CAL]", "move [--calibration CAL] BEFORE AFTER POSITION", "bench [--cases N]", "view [--last MOVE]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", c.args...)
			if code != c.code {
				t.Fatalf("exit: got %d, want %d\nstdout: %s\nstderr: %s", code, c.code, out, errs)
			}
			for _, want := range c.contains {
				if !strings.Contains(out+errs, want) {
					t.Errorf("output lacks %q:\n%s%s", want, out, errs)
				}
			}
		})
	}
}

func TestBattle9BenchCLI(t *testing.T) {
	code, out, errs := runCLI(t, "", "battle9", "bench", "--cases", "1", "--tiers", "easy", "--size", "480x360")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"1 cases per tier, 480x360", "easy", "all", "squares: the after frame"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	code, out, errs = runCLI(t, "", "battle9", "bench", "--cases", "1", "--tiers", "easy", "--size", "480x360", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Tiers []struct {
			Tier           string  `json:"tier"`
			Squares        int     `json:"squares"`
			SquareAccuracy float64 `json:"square_accuracy"`
		} `json:"tiers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(rep.Tiers) != 2 || rep.Tiers[0].Tier != "easy" || rep.Tiers[0].Squares != 81 {
		t.Errorf("JSON tiers: got %+v, want easy (81 squares) then all", rep.Tiers)
	}
	for _, bad := range [][]string{{"--cases", "0"}, {"--size", "big"}, {"--tiers", "brutal"}, {"--format", "xml"}} {
		if code, _, _ := runCLI(t, "", append([]string{"battle9", "bench"}, bad...)...); code != 2 {
			t.Errorf("bench %v: exit %d, want 2", bad, code)
		}
	}
}
