package models

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestAKnownFieldSetAfterReadingIsWrittenOnce: a disk read with px alone
// keeps it among its unknown fields; when vision then gives the disk its
// whole circle in pixels, the layout is written with one "px", the new.
func TestAKnownFieldSetAfterReadingIsWrittenOnce(t *testing.T) {
	l, err := Parse([]byte(`{"version": 1, "disks": [{"x": 1, "y": 2, "r": 3, "px": 5}]}`))
	if err != nil {
		t.Fatal(err)
	}
	l.Disks[0].Pixel = &ImageCircle{PX: 10, PY: 20, PR: 30}
	data, err := l.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"px"`); n != 1 {
		t.Errorf(`"px" written %d times, want once:\n%s`, n, data)
	}
	back, err := Parse(data)
	if err != nil || back.Disks[0].Pixel == nil || back.Disks[0].Pixel.PX != 10 {
		t.Errorf("read back: %v, pixel %+v; want px 10", err, back.Disks[0].Pixel)
	}
}

// A disk's rim colour (extension) is written and read back beside its
// class; RimClass keeps the spec's classes and names every other colour
// unknown (table-model.md: "`unknown` otherwise").
func TestRimColourAndClass(t *testing.T) {
	for colour, want := range map[string]string{"green": "green", "blue": "blue", "black": "black", "red": "red",
		"gold": "unknown", "purple": "unknown", "": "unknown", "unknown": "unknown"} {
		if got := RimClass(colour); got != want {
			t.Errorf("RimClass(%q) = %q, want %q", colour, got, want)
		}
	}
	l := Layout{Version: Version, Disks: []Disk{{ID: "d1", R: 2, Rim: "unknown", RimColour: "gold"}}}
	b, err := Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"rim_colour": "gold"`)) && !bytes.Contains(b, []byte(`"rim_colour":"gold"`)) {
		t.Errorf("rim_colour not written: %s", b)
	}
	back, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := back.Disks[0]; d.Rim != "unknown" || d.RimColour != "gold" {
		t.Errorf("read back rim %q, rim_colour %q; want unknown, gold", d.Rim, d.RimColour)
	}
}
