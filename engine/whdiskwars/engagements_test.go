package whdiskwars

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tableref/models"
)

// relationOf builds a pin relation on n disks from "top>bottom" pairs of
// disk numbers.
func relationOf(n int, pins ...[2]int) Relation {
	slices.SortFunc(pins, comparePairs)
	r := newRelation(n)
	for _, p := range pins {
		r.add(p[0], p[1])
	}
	return r
}

// splitText writes a split as "a0,a1>d0;..." per engagement, and the
// embattled disks.
func splitText(s Split) string {
	var parts []string
	for _, g := range s.Engagements {
		parts = append(parts, fmt.Sprint(g.Attackers, ">", g.Defenders))
	}
	return strings.Join(parts, " ") + fmt.Sprint(" embattled ", s.Embattled)
}

// "All disks that can be traced back to a single common attacker or
// defender, in a way that no disk is embattled, are considered to be part
// of the same engagement" (shared/seeds/001_5f6384918549c6a5.txt,
// Engagements).
func TestSplitEngagements(t *testing.T) {
	tests := []struct {
		name string
		n    int
		pins [][2]int
		want string
	}{
		{"no pins, no engagement", 3, nil, " embattled []"},
		{"one pin", 2, [][2]int{{0, 1}}, "[0]>[1] embattled []"},
		{"two attackers on one defender", 3, [][2]int{{0, 2}, {1, 2}}, "[0 1]>[2] embattled []"},
		{"one attacker on two defenders", 3, [][2]int{{0, 1}, {0, 2}}, "[0]>[1 2] embattled []"},
		{"separate melees are separate engagements", 4, [][2]int{{2, 3}, {0, 1}}, "[0]>[1] [2]>[3] embattled []"},
		{"a chain: the middle disk is embattled, two engagements", 3, [][2]int{{0, 1}, {1, 2}}, "[0]>[1] [1]>[2] embattled [1]"},
		{"numbered by first attacker", 3, [][2]int{{2, 1}, {1, 0}}, "[1]>[0] [2]>[1] embattled [1]"},
		{"linked through a shared defender", 5, [][2]int{{0, 2}, {1, 2}, {1, 3}, {4, 3}}, "[0 1 4]>[2 3] embattled []"},
		{"an embattled disk's roles do not join its engagements", 5, [][2]int{{0, 1}, {1, 2}, {3, 1}, {1, 4}}, "[0 3]>[1] [1]>[2 4] embattled [1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := splitText(SplitEngagements(relationOf(tt.n, tt.pins...))); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// With three sides a disk can pin an enemy and be pinned by a third side
// that also pins that enemy: its two roles meet in one engagement.
func TestSplitThreeSidesCanJoinBothRoles(t *testing.T) {
	// 0 (side A) pins 1 (B); 2 (C) pins 1 and 0.
	s := SplitEngagements(relationOf(3, [2]int{0, 1}, [2]int{2, 0}, [2]int{2, 1}))
	if got, want := splitText(s), "[0 2]>[0 1] embattled [0]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	pairs, same := ResolveBefore(s)
	if len(pairs) != 0 || !slices.Equal(same, []int{0}) {
		t.Errorf("ResolveBefore: got pairs %v same %v, want none and [0]", pairs, same)
	}
}

func TestScrums(t *testing.T) {
	// Two scrums (0>1>2 and 3>4>5>6) and a lone engagement 7>8.
	s := SplitEngagements(relationOf(9, [2]int{0, 1}, [2]int{1, 2}, [2]int{3, 4}, [2]int{4, 5}, [2]int{5, 6}, [2]int{7, 8}))
	got := fmt.Sprint(s.Scrums())
	if want := "[[0 1] [2 3 4]]"; got != want {
		t.Errorf("scrums: got %s, want %s", got, want)
	}
}

// Only enemies engage: friends lying on each other, terrain and spells do
// not.
func TestEnemyPinsOnlyBetweenEnemyCreatures(t *testing.T) {
	b := newBuilder().
		disk("a", "red", 0, 0, 2, nil).
		disk("friend", "red", 4, 0, 1, nil).
		disk("enemy", "blue", -4, 0, 1, nil).
		disk("forest", "", 0, 4, 0, nil).with(func(d *models.Disk) { d.Kind = models.KindTerrain; d.Terrain = "forest" }).
		disk("spell", "blue", 0, -4, 3, nil).with(func(d *models.Disk) { d.Kind = models.KindSpell })
	tbl := b.table()
	r := EnemyPins(tbl)
	var got []string
	for top, bs := range r.Pins {
		for _, bottom := range bs {
			got = append(got, tbl.ID(top)+">"+tbl.ID(bottom))
		}
	}
	checkList(t, "enemy pins", got, []string{"a>enemy"})
	if len(contactsOf(tbl)) != 4 {
		t.Fatalf("layout: got contacts %v, want a on friend, enemy and forest, spell on a", contactsOf(tbl))
	}
}

// The table model: "Two disks are enemies when their sides differ, or,
// where no side is given, their owners differ" (models.Enemies: sides
// when both have one, else owners, both needed). A pin between creatures
// that neither both sides nor both owners settle makes no engagement; the
// report says so rather than staying silent.
func TestPinsWhoseEnmityCannotBeToldAreWarned(t *testing.T) {
	tests := []struct {
		name        string
		top, bottom func(d *models.Disk)
		engagements int
		warning     string // "" for none
	}{
		{"a side on one, an owner on the other", func(d *models.Disk) { d.Side = "chaos" }, func(d *models.Disk) { d.Side, d.Owner = "", "empire" }, 0,
			`cannot tell whether top and bottom are enemies: top has side "chaos" and no owner, bottom has owner "empire" and no side`},
		{"neither side nor owner", func(d *models.Disk) { d.Side = "" }, func(d *models.Disk) { d.Side = "" }, 0,
			"cannot tell whether top and bottom are enemies: top has neither side nor owner, bottom has neither side nor owner"},
		{"owners on both, a side on one", func(d *models.Disk) { d.Side, d.Owner = "chaos", "red" }, func(d *models.Disk) { d.Side, d.Owner = "", "blue" }, 1, ""},
		{"sides on both", func(d *models.Disk) { d.Side = "chaos" }, func(d *models.Disk) { d.Side = "chaos" }, 0, ""},
		{"terrain without owner", func(d *models.Disk) { d.Side = "chaos" }, func(d *models.Disk) { d.Side, d.Kind = "", models.KindTerrain }, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newBuilder().
				disk("top", "x", 0, 0, 2, stats(3, 1, 5, 0)).with(tt.top).
				disk("bottom", "y", 3, 0, 1, stats(3, 1, 5, 0)).with(tt.bottom)
			a := mustRun(t, b.table())
			if got := len(a.Split.Engagements); got != tt.engagements {
				t.Errorf("engagements: got %d, want %d", got, tt.engagements)
			}
			all := strings.Join(a.Warnings, "\n")
			switch {
			case tt.warning == "" && len(a.Warnings) > 0:
				t.Errorf("warnings: got %q, want none", a.Warnings)
			case tt.warning != "" && !strings.Contains(all, tt.warning):
				t.Errorf("warnings: got %q, want one containing %q", a.Warnings, tt.warning)
			}
		})
	}
}
