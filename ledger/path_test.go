package ledger

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPathsWithURICharacters: a database whose name holds a character
// SQLite's URIs give a meaning to (#, ?, %) is the file of that name, not
// one named by the part before it or by its decoding.
func TestPathsWithURICharacters(t *testing.T) {
	for _, name := range []string{"war#2.db", "war?2.db", "a%41b.db", "100%.db", "sp ace.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			s, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.Create("war", GreatWar); err != nil {
				t.Fatal(err)
			}
			s.Close()
			ents, _ := os.ReadDir(dir)
			var got []string
			for _, e := range ents {
				got = append(got, e.Name())
			}
			if !slices.Equal(got, []string{name}) {
				t.Errorf("files in the folder: got %q, want only %q", got, name)
			}
			s, err = Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, err := s.Campaign("war"); err != nil {
				t.Errorf("reopened: %v", err)
			}
		})
	}
}
