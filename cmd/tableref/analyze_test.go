package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jsonLinesOf returns the named layouts of testdata/layouts as JSON Lines,
// as detect writes a video.
func jsonLinesOf(t *testing.T, names ...string) string {
	t.Helper()
	var b bytes.Buffer
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "layouts", n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&b, data); err != nil {
			t.Fatal(err)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestAnalyzeReadsJSONLines: a stream of layouts gives one report each,
// JSON Lines in json format, headed reports in text format.
func TestAnalyzeReadsJSONLines(t *testing.T) {
	in := jsonLinesOf(t, "sandwich", "volley")
	path := filepath.Join(t.TempDir(), "game.jsonl")
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, stdin, file, format, golden string }{
		{"json from a file", "", path, "json", "stream.jsonl"},
		{"json from standard input", in, "-", "json", "stream.jsonl"},
		{"text from a file", "", path, "text", "stream.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, tc.stdin, "analyze", "--format", tc.format, tc.file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, tc.golden, out)
			if tc.format != "json" {
				return
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("%d report lines, want 2:\n%s", len(lines), out)
			}
			for i, want := range []string{"geometry", "geometry"} {
				var rep struct{ Rules string }
				if err := json.Unmarshal([]byte(lines[i]), &rep); err != nil || rep.Rules != want {
					t.Errorf("line %d: rules %q (%v), want %s", i+1, rep.Rules, err, want)
				}
			}
		})
	}
}

// TestAnalyzeOfOneLineIsTheSingleReport: a JSON Lines file of one layout
// reads as that layout's file does.
func TestAnalyzeOfOneLineIsTheSingleReport(t *testing.T) {
	code, out, errs := runCLI(t, jsonLinesOf(t, "sandwich"), "analyze", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "sandwich.json", out)
}

// TestAnalyzeStopsAtABadRecord: the reports before a bad record are
// printed, then the error names the record and the exit status is 1.
func TestAnalyzeStopsAtABadRecord(t *testing.T) {
	good := jsonLinesOf(t, "sandwich")
	tests := []struct {
		name, stdin string
		reports     int
		want        string
	}{
		{"an invalid second record", good + `{"version": 1, "disks": [{"id": "x", "x": 0, "y": 0, "r": 200}]}` + "\n" + good,
			1, `stdin: record 2 (line 2): disk "x" (index 0), field "r": 200 cm is absurd`},
		{"malformed JSON on line 3", good + good + "{\"version\": 1,,}\n",
			2, "stdin:3:16: record 3 (line 3): malformed JSON"},
		{"a layout the rules cannot read", `{"version": 1, "disks": [{"id": "z", "x": 0, "y": 0, "r": 1}]}` + "\n" + `{"version": 1, "disks": [{"id": "o", "owner": "a", "x": 0, "y": 0, "r": 2, "z": 1}, {"id": "p", "owner": "b", "x": 1, "y": 0, "r": 2}]}` + "\n",
			1, "stdin: record 2 (line 2): whdiskwars rules:"},
		{"nothing at all", "\n", 0, "stdin: no layout in it"},
		// One layout and a stray bracket: refused whole, as before JSON
		// Lines were read, not a report and then an error.
		{"a stray bracket after one layout", good + "}\n", 0, "record 2 (line 2): malformed JSON"},
		{"text after one layout", good + "xx\n", 0, "malformed JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"analyze", "-"}
			if strings.Contains(tc.name, "rules") {
				args = []string{"analyze", "--rules", "whdiskwars", "-"}
			}
			code, out, errs := runCLI(t, tc.stdin, args...)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q lacks %q", errs, tc.want)
			}
			if got := strings.Count(out, "\n"); got != tc.reports {
				t.Errorf("%d reports printed, want %d:\n%s", got, tc.reports, out)
			}
		})
	}
}

// TestAnalyzeReadsWhatDetectWritesWithoutACalibration: detect without a
// calibration writes pixels and "units": "px"; analyze reads it, and still
// refuses the same numbers in centimetres.
func TestAnalyzeReadsWhatDetectWritesWithoutACalibration(t *testing.T) {
	px := `{"version": 1, "source": "big.png", "units": "px",
	  "disks": [{"id": "d1", "kind": "unknown", "x": 392.757, "y": 227.153, "r": 123.5, "z": 0, "px": 392.757, "py": 227.153, "pr": 123.5},
	            {"id": "d2", "kind": "unknown", "x": 4000, "y": 1100, "r": 68.7, "z": 0, "px": 4000, "py": 1100, "pr": 68.7}]}`
	code, out, errs := runCLI(t, px, "analyze", "--format", "text", "-")
	if code != 0 {
		t.Fatalf("a pixel layout refused: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Distances, edge to edge (px):") {
		t.Errorf("text report does not say pixels:\n%s", out)
	}
	code, out, _ = runCLI(t, px, "analyze", "-")
	if code != 0 || !strings.Contains(out, `"units": "px"`) {
		t.Errorf("json report (exit %d) does not say px:\n%s", code, out)
	}
	cm := strings.Replace(px, `"units": "px",`, "", 1)
	code, _, errs = runCLI(t, cm, "analyze", "-")
	if code != 1 || !strings.Contains(errs, `field "r": 123.5 cm is absurd`) {
		t.Errorf("a centimetre layout with r 123.5: exit %d, stderr %q", code, errs)
	}
}

func TestAnalyzeSkipsAByteOrderMark(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "layouts", "sandwich.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bom.json")
	if err := os.WriteFile(path, append([]byte("\uFEFF"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "", "analyze", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	golden(t, "sandwich.json", out)
}
