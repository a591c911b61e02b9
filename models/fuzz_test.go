package models

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds the loader arbitrary bytes: it must never panic, and
// what it accepts must survive a round trip unchanged.
func FuzzParse(f *testing.F) {
	f.Add([]byte(goodLayout))
	f.Add([]byte(`{"version": 1}`))
	f.Add([]byte(`{"version": 1, "disks": [{"x": 1, "y": 2, "r": 3, "stats": {"missile_kind": "arrow"}}]}`))
	f.Add([]byte(`{"version": 1, "tokens": [{"poly": [[0,0],[1,0],[0,1]]}]}`))
	f.Add([]byte(`{"version": 1, "disks": [{"id": "a", "x": 1e400, "y": 0, "r": 1}]}`))
	f.Add([]byte(`{"version": 1, "disks": [{"id": "a", "x": 1, "y": 0, "r": 1}, {"id": "a", "x": 1, "y": 0, "r": 1}]}`))
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "layouts", "*.json"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		out, err := Marshal(l)
		if err != nil {
			t.Fatalf("cannot write an accepted layout: %v", err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("cannot read back what was written: %v\n%s", err, out)
		}
		again, err := Marshal(back)
		if err != nil || !bytes.Equal(out, again) {
			t.Fatalf("round trip is not stable:\n%s\n---\n%s", out, again)
		}
	})
}
