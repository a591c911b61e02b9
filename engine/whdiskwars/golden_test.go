package whdiskwars_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/engine/rulesets"
	"tableref/models"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/golden")

// report returns the analysis report of a testdata layout under the
// whdiskwars rules as "tableref analyze --rules whdiskwars" prints it.
func report(t *testing.T, name string) []byte {
	t.Helper()
	rs, err := rulesets.Lookup("whdiskwars")
	if err != nil || rs == nil {
		t.Fatalf("rulesets.Lookup(whdiskwars): got %v, %v, want the ruleset", rs, err)
	}
	l, err := models.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := engine.Analyze(l, rs)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The full report of the Figure 6 scrum (shared/seeds/001_5f6384918549c6a5.txt):
// geometry, engagements, embattled, resolve_before, melee, log, details.
// Run "go test ./engine/whdiskwars -run Golden -update" after a deliberate
// change, and read the diff.
func TestGoldenReportFigure6Scrum(t *testing.T) {
	got := report(t, "figure6.json")
	path := filepath.Join("testdata", "golden", "figure6.report.json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("report differs from %s at line %d:\n got: %s\nwant: %s\n(run with -update after a deliberate change)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("report differs from %s in length: got %d lines, want %d", path, len(gl), len(wl))
	}
}
