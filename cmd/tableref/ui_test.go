package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"tableref/engine"
	"tableref/ui"
)

func TestDemoSequenceIsAGameOfValidLayouts(t *testing.T) {
	ls, err := readLayoutLines(bytes.NewReader(demoSequence), "demo game")
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 4 {
		t.Fatalf("got %d layouts, want 4 (deployment, move, volley, melee)", len(ls))
	}
	// The volley (layout 3) must show hits and the move (layout 2)
	// contacts, or the demo shows nothing worth seeing.
	move, err := engine.Analyze(ls[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(move.Contacts) < 2 {
		t.Errorf("move: got %d contacts, want at least 2", len(move.Contacts))
	}
	volley, err := engine.Analyze(ls[2], nil)
	if err != nil {
		t.Fatal(err)
	}
	hits := 0
	for _, h := range volley.Hits {
		hits += len(h.Disks)
	}
	if hits < 3 {
		t.Errorf("volley: got %d hits, want at least 3", hits)
	}
}

func TestReadLayoutLinesNamesTheBadLine(t *testing.T) {
	in := "{\"version\":1,\"disks\":[{\"id\":\"a\",\"x\":1,\"y\":1,\"r\":1}]}\n\n{\"version\":1,\"disks\":[{\"id\":\"b\",\"x\":1,\"y\":1}]}\n"
	_, err := readLayoutLines(strings.NewReader(in), "game.jsonl")
	if err == nil || !strings.Contains(err.Error(), "game.jsonl line 3") {
		t.Errorf("got %v, want an error naming game.jsonl line 3", err)
	}
	if _, err := readLayoutLines(strings.NewReader("\n\n"), "empty.jsonl"); err == nil {
		t.Errorf("an empty game: got no error, want one")
	}
}

func FuzzReadLayoutLines(f *testing.F) {
	f.Add(demoSequence)
	f.Add([]byte("{\"version\":1}\n{\"version\":1,\"disks\":[]}\n"))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ls, err := readLayoutLines(bytes.NewReader(data), "fuzz")
		if err == nil && len(ls) == 0 {
			t.Fatalf("no error and no layout")
		}
	})
}

func TestUIRejectsBadCommandLines(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"two files", []string{"a.json", "b.json"}},
		{"unknown rules", []string{"--rules", "chess"}},
		{"negative uncertainty", []string{"--uncertainty", "-1"}},
		{"zero interval", []string{"--interval", "0"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := parseUIFlags(c.args)
			if !errors.Is(err, errUsage) {
				t.Errorf("got %v, want a usage error", err)
			}
		})
	}
}

func TestUISourcesByFileKind(t *testing.T) {
	src, session, err := uiSource(nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ls, ok := src.(*ui.LayoutSource); !ok || len(ls.Layouts) != 4 || !ls.Loop || session.corrections != "" {
		t.Errorf("no file: got %T %+v, want the looping demo game with corrections in memory", src, session)
	}
	_, session, err = uiSource([]string{"testdata/none.json"}, 0)
	if err == nil {
		t.Errorf("a missing file: got no error, want one")
	}
	if session.corrections != "" {
		t.Errorf("a failed source: got corrections path %q, want none", session.corrections)
	}
}
