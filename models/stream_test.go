package models

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// readAll reads every layout of a stream, stopping at the first error.
func readAll(t *testing.T, input string) ([]Layout, error) {
	t.Helper()
	s := NewStream(strings.NewReader(input), "in.jsonl")
	var out []Layout
	for {
		l, err := s.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, l)
	}
}

func TestStreamReadsEveryLayout(t *testing.T) {
	one := `{"version": 1, "source": "a", "disks": [{"x": 0, "y": 0, "r": 1}]}`
	two := `{"version": 1, "source": "b"}`
	tests := []struct {
		name, input string
		sources     []string
	}{
		{"a single pretty layout", "{\n  \"version\": 1,\n  \"source\": \"a\"\n}\n", []string{"a"}},
		{"JSON Lines", one + "\n" + two + "\n", []string{"a", "b"}},
		{"JSON Lines without a final newline", one + "\n" + two, []string{"a", "b"}},
		{"JSON Lines with blank lines and CRLF", one + "\r\n\r\n" + two + "\r\n", []string{"a", "b"}},
		{"pretty layouts one after another", "{\n\"version\": 1, \"source\": \"a\"}\n{\n\"version\": 1,\n\"source\": \"b\"}", []string{"a", "b"}},
		{"a byte order mark first", "\uFEFF" + one + "\n" + two, []string{"a", "b"}},
		{"nothing", "", nil},
		{"white space only", " \n\n", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := readAll(t, tc.input)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			var got []string
			for _, l := range ls {
				got = append(got, l.Source)
			}
			if strings.Join(got, ",") != strings.Join(tc.sources, ",") {
				t.Errorf("sources %v, want %v", got, tc.sources)
			}
		})
	}
}

func TestStreamErrorsNameTheRecordAndLine(t *testing.T) {
	good := `{"version": 1}`
	tests := []struct {
		name, input string
		read        int // layouts read before the error
		want        string
	}{
		{"a bad disk on line 3", good + "\n" + good + "\n" + `{"version": 1, "disks": [{"id": "a", "x": 0, "y": 0, "r": -1}]}`,
			2, `in.jsonl: record 3 (line 3): disk "a" (index 0), field "r": must be greater than 0`},
		{"malformed JSON on line 2", good + "\n{\"version\": 1,, }\n",
			1, "in.jsonl:2:16: record 2 (line 2): malformed JSON: invalid character ','"},
		{"a record cut short", good + "\n\n{\"version\": 1,\n \"disks\": [",
			1, "in.jsonl:4:12: record 2 (line 3): malformed JSON: the file ends too early"},
		{"a bad first record names no record", `{"version": 7}` + "\n" + good,
			0, "in.jsonl: layout, field \"version\": unknown version 7"},
		{"the reviewer's two lines with a bad second", good + "\n" + `{"version": 1, "disks": [{"x": 0, "y": 0}]}`,
			1, `in.jsonl: record 2 (line 2): disk at index 0, field "r": missing`},
		{"a list instead of a layout", "[1, 2]",
			0, "in.jsonl: layout: expected a JSON object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ls, err := readAll(t, tc.input)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if !errors.Is(err, ErrInvalidLayout) {
				t.Errorf("error %v does not match ErrInvalidLayout", err)
			}
			if len(ls) != tc.read {
				t.Errorf("read %d layouts before the error, want %d", len(ls), tc.read)
			}
		})
	}
}

// TestStreamGoesOnAfterAnInvalidRecord: a well-formed record that fails
// validation does not stop the stream; the caller decides.
func TestStreamGoesOnAfterAnInvalidRecord(t *testing.T) {
	s := NewStream(strings.NewReader(`{"version": 7}`+"\n"+`{"version": 1, "source": "b"}`), "x")
	if _, err := s.Next(); err == nil {
		t.Fatal("version 7 accepted")
	}
	l, err := s.Next()
	if err != nil || l.Source != "b" {
		t.Fatalf("second record: %+v, %v", l, err)
	}
	if n, line := s.Record(); n != 2 || line != 2 {
		t.Errorf("Record() = %d, %d; want 2, 2", n, line)
	}
}

func FuzzStream(f *testing.F) {
	f.Add(goodLayout + "\n" + goodLayout)
	f.Add("{\"version\": 1}\n{\"version\": 1,")
	f.Add("\uFEFF{\"version\": 1}\n\n[")
	f.Fuzz(func(t *testing.T, input string) {
		s := NewStream(strings.NewReader(input), "fuzz")
		for range 1000 {
			_, err := s.Next()
			if err == io.EOF {
				return
			}
			if err != nil && err.Error() == "" {
				t.Fatal("empty error message")
			}
		}
	})
}

// TestStreamOfOneLayoutErrsAsRead: for a file holding one layout the
// stream's errors are Read's, word for word.
func TestStreamOfOneLayoutErrsAsRead(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "layouts", "bad", "*.json"))
	inputs := []string{"{\"version\": 1,\n  \"disks\": [}", "{\"version\": 1, \"tokens\": [{\"kind\": 3}]}", "null"}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, string(data))
	}
	for _, in := range inputs {
		_, want := Read(strings.NewReader(in), "f.json")
		_, got := NewStream(strings.NewReader(in), "f.json").Next()
		if want == nil {
			t.Fatalf("input %.40q: Read accepts it", in)
		}
		if got == nil || got.Error() != want.Error() {
			t.Errorf("input %.40q: stream says %v, Read says %v", in, got, want)
		}
	}
}
