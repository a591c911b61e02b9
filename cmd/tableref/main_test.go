package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/models"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// runCLI runs tableref in-process and returns its exit code and output.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String(), errb.String()
}

// golden compares got with testdata/golden/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (go test -update rewrites it; read the diff):\n%s", path, got)
	}
}

func TestAnalyzeGolden(t *testing.T) {
	for _, name := range []string{"sandwich", "volley"} {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", "analyze", "--rules", "geometry", filepath.Join("..", "..", "testdata", "layouts", name+".json"))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			golden(t, name+".json", out)
		})
	}
}

func TestAnalyzeAnswersTheSpecFields(t *testing.T) {
	code, out, errs := runCLI(t, "", "analyze", filepath.Join("..", "..", "testdata", "layouts", "sandwich.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Rules     string
		Distances []struct {
			A, B string
			Edge float64 `json:"edge_cm"`
		}
		Contacts []struct{ Top, Bottom string }
		Hits     []any
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s", err, out)
	}
	if rep.Rules != "geometry" || len(rep.Distances) != 15 {
		t.Errorf("rules %q, %d distances; want geometry and 15 (6 disks)", rep.Rules, len(rep.Distances))
	}
	// Rulebook example 1: A touches B, B touches C, A does not touch C.
	// Example 2: A2 touches B2 and C2.
	var got []string
	for _, c := range rep.Contacts {
		got = append(got, c.Top+">"+c.Bottom)
	}
	if want := "A>B B>C A2>B2 A2>C2"; strings.Join(got, " ") != want {
		t.Errorf("contacts = %v, want %s", got, want)
	}
	if rep.Distances[0].A != "A" || rep.Distances[0].B != "B" || rep.Distances[0].Edge != -2 {
		t.Errorf("first distance = %+v, want A-B at -2 cm", rep.Distances[0])
	}
}

func TestAnalyzeReadsStandardInput(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "layouts", "volley.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, string(data), "analyze", "-", "--format", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"B hits disk1, disk2", "A misses", "F hits high", "G hits low"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

func TestBadInputGivesAClearErrorAndNonZeroExit(t *testing.T) {
	bad := filepath.Join("..", "..", "testdata", "layouts", "bad")
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"duplicate id", []string{"analyze", filepath.Join(bad, "duplicate-id.json")}, 1, `duplicate id "a"`},
		{"negative radius", []string{"analyze", filepath.Join(bad, "negative-radius.json")}, 1, `disk "orc" (index 0), field "r": must be greater than 0`},
		{"truncated file", []string{"analyze", filepath.Join(bad, "truncated.json")}, 1, "truncated.json:2:"},
		{"unknown version", []string{"analyze", filepath.Join(bad, "unknown-version.json")}, 1, "unknown version 7"},
		{"missing file", []string{"analyze", "no-such-file.json"}, 1, "no-such-file.json"},
		{"no file given", []string{"analyze"}, 2, "give exactly one layout file"},
		{"unknown rules", []string{"analyze", "--rules", "chess", "x.json"}, 2, `unknown rules "chess"`},
		{"unknown flag", []string{"analyze", "--colour", "x.json"}, 2, "flag provided but not defined"},
		{"unknown command", []string{"analyse"}, 2, `unknown command "analyse"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, "", tc.args...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d", code, tc.code)
			}
			if !strings.Contains(errs, tc.want) {
				t.Errorf("stderr %q lacks %q", errs, tc.want)
			}
			if out != "" {
				t.Errorf("stdout should be empty on error, got %q", out)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Errorf("a stack trace reached the user: %s", errs)
			}
		})
	}
}

func TestHelpIsWrittenForANewcomer(t *testing.T) {
	code, out, _ := runCLI(t, "", "--help")
	if code != 0 || !strings.Contains(out, "analyze") || !strings.Contains(out, "Commands:") {
		t.Errorf("tableref --help: exit %d\n%s", code, out)
	}
	for name, c := range commands {
		if !strings.Contains(c.usage, "Example") {
			t.Errorf("help of %s has no example", name)
		}
		code, out, _ := runCLI(t, "", name, "--help")
		if code != 0 || out != c.usage {
			t.Errorf("tableref %s --help: exit %d, printed %q", name, code, out)
		}
	}
}

func TestDemoRuns(t *testing.T) {
	code, out, errs := runCLI(t, "", "demo", "--format", "text")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"warband (Orc Warband) on archers (Deepwood Archers)", "b1 hits wolves", "a3 misses"} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
}

// layoutLines parses out, JSON Lines of layouts (detect, track), failing
// the test on a line that is not one.
func layoutLines(t *testing.T, out string) []models.Layout {
	t.Helper()
	var ls []models.Layout
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		l, err := models.Parse(sc.Bytes())
		if err != nil {
			t.Fatalf("line %d is not a layout: %v", len(ls)+1, err)
		}
		ls = append(ls, l)
	}
	return ls
}
