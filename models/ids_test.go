package models

import "testing"

func TestCompareIDs(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"frame2", "frame10", -1},
		{"frame10", "frame2", 1},
		{"a", "b", -1},
		{"f1", "f1", 0},
		{"f01", "f1", -1}, // equal numbers: plain order decides
		{"f1", "f1a", -1},
		{"x9y", "x10a", -1},
		{"img_0099", "img_0100", -1},
		{"d9", "d10", -1}, // disk ids: melee's tie-break (docs/diskwars.md)
		{"99999999999999999999999", "100000000000000000000000", -1}, // beyond int64
	}
	for _, c := range cases {
		if got := CompareIDs(c.a, c.b); got != c.want {
			t.Errorf("CompareIDs(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
