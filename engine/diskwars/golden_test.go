package diskwars

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"tableref/engine"
	"tableref/models"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestAnalyzeGolden compares the full analysis report of each table in
// testdata/*.json with testdata/golden/NAME.json. Run
// "go test ./engine/diskwars -run Golden -update" to rewrite them, then
// read the diff.
func TestAnalyzeGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no tables in testdata: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			l, err := models.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := engine.Analyze(l, Ruleset{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", filepath.Base(f))
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report for %s differs from %s (run with -update and read the diff):\n%s", f, golden, got)
			}
		})
	}
}
