package models

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileAtomicReplacesWhole checks that WriteFileAtomic replaces a
// file whole, leaves no temporary file beside it, makes it 0644, and
// leaves the old file as it was when it cannot write.
func TestWriteFileAtomicReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "table.json")
	for _, data := range []string{"old, and longer than the new\n", "new\n"} {
		if err := WriteFileAtomic(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != data {
			t.Fatalf("after writing %q: %q (%v)", data, got, err)
		}
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("mode: %v (%v), want 0644", st.Mode().Perm(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder holds %d files, want only table.json", len(entries))
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x.json"), []byte("x")); err == nil {
		t.Error("writing into a missing folder: no error")
	}
}
