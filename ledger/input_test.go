package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

const bom = "\xef\xbb\xbf"

// TestFilesSavedWithABOMAndCRLF: an exported campaign or an event saved by
// a Windows editor (a byte order mark, CRLF line ends) reads as the same
// file without them.
func TestFilesSavedWithABOMAndCRLF(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	t.Run("an event", func(t *testing.T) {
		r, err := s.Append("war", json.RawMessage(bom+"{\"kind\":\"transfer\",\r\n\"player\":\"kate\",\"to\":\"eli\",\"gold\":1}\r\n"))
		if err != nil {
			t.Fatalf("got %v, want the event recorded", err)
		}
		if want := `{"kind":"transfer","player":"kate","to":"eli","gold":1}`; string(r.Event) != want {
			t.Errorf("stored event: got %q, want %q", r.Event, want)
		}
		x, err := s.Export("war")
		if err == nil {
			_, err = MarshalExport(x)
		}
		if err != nil {
			t.Errorf("export after it: %v", err)
		}
	})
	t.Run("an exported campaign", func(t *testing.T) {
		x, _ := s.Export("war")
		data, _ := MarshalExport(x)
		win := bom + strings.ReplaceAll(string(data), "\n", "\r\n") + "\r\n"
		y, err := ParseExport([]byte(win))
		if err != nil {
			t.Fatalf("got %v, want the file read", err)
		}
		if _, err := s.Import(y, "copy"); err != nil {
			t.Errorf("import: %v", err)
		}
	})
}

// TestBadExportFileNamesTheLine: a campaign file edited by hand with a
// syntax error, or cut short, is refused with the line of the damage.
func TestBadExportFileNamesTheLine(t *testing.T) {
	s, _ := openTemp(t)
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	playTurns(t, s, "war", 3)
	x, _ := s.Export("war")
	good, _ := MarshalExport(x)
	lines := strings.Split(string(good), "\n")
	k := 40 // the first line from the 41st that ends in a comma
	for !strings.HasSuffix(lines[k], ",") {
		k++
	}
	noComma := slices.Clone(lines)
	noComma[k] = strings.TrimSuffix(noComma[k], ",")
	cases := []struct {
		name, data, want string
	}{
		{"a comma missing in the middle", strings.Join(noComma, "\n"), fmt.Sprintf("line %d", k+2)},
		{"a file cut short", strings.Join(lines[:60], "\n"), "line 60"},
		{"a file cut short, with CRLF", strings.ReplaceAll(strings.Join(lines[:60], "\n"), "\n", "\r\n"), "line 60"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseExport([]byte(c.data))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error naming %s", err, c.want)
			}
		})
	}
}
