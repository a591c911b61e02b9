package ui

import (
	"strings"
	"testing"
)

// TestSourceNoteReachesTheStatusLine feeds two frames, the second with a
// note from the source (frames skipped), and reads the status line.
func TestSourceNoteReachesTheStatusLine(t *testing.T) {
	u := newTestUI(t)
	f := frameOf(t, skirmish())
	u.Feed(f)
	u.Step()
	if got := u.w.status.Text; strings.Contains(got, "skipped") {
		t.Fatalf("got status %q before any note, want no note", got)
	}
	f.Seq, f.Note = 2, "3 frames skipped: bad frame"
	u.Feed(f)
	u.Step()
	if got := u.w.status.Text; !strings.Contains(got, "3 frames skipped: bad frame") {
		t.Errorf("got status %q, want the source's note in it", got)
	}
	f.Seq, f.Note = 3, ""
	u.Feed(f)
	u.Step()
	if got := u.w.status.Text; strings.Contains(got, "skipped") {
		t.Errorf("got status %q after the note cleared, want it gone", got)
	}
}

func TestStatusTextJoinsNoteAndNotice(t *testing.T) {
	tests := []struct {
		name string
		s    snapshot
		want string
	}{
		{"no note", snapshot{frameSeq: 4, rules: "geometry", settled: true}, "Frame 4 · table settled · rules geometry"},
		{"a source note", snapshot{frameSeq: 4, rules: "geometry", settled: true, frameNote: "no calibration"},
			"Frame 4 · table settled · rules geometry · no calibration"},
		{"a note and a notice", snapshot{frameSeq: 4, rules: "geometry", settled: true, frameNote: "no calibration", notice: "source stopped"},
			"Frame 4 · table settled · rules geometry · no calibration · source stopped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := statusText(tt.s); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
