package engine

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"tableref/models"
)

// TestSpecContactBoundaries follows shared/spec/table-model.md,
// "Geometry": overlap is an edge-to-edge distance below zero, and A
// (higher z) is in contact with B (lower z) when they overlap and the lens
// is not entirely covered by disks whose z is strictly between.
func TestSpecContactBoundaries(t *testing.T) {
	tests := []struct {
		name  string
		disks []models.Disk
		want  []string
	}{
		{"edges exactly touching (3.2 cm disks 6.4 cm apart) is no overlap",
			[]models.Disk{disk("a", 40, 25.5, 3.2, 1), disk("b", 46.4, 25.5, 3.2, 0)}, nil},
		{"a hundredth of a millimetre of overlap is contact",
			[]models.Disk{disk("a", 40, 25.5, 3.2, 1), disk("b", 46.399, 25.5, 3.2, 0)}, []string{"a>b"}},
		{"identical centres: the upper lies on the lower",
			[]models.Disk{disk("a", 10, 10, 3, 0), disk("b", 10, 10, 2, 1)}, []string{"b>a"}},
		{"three identical disks stacked: each lies on the one below only",
			[]models.Disk{disk("a", 10, 10, 3, 0), disk("b", 10, 10, 3, 1), disk("c", 10, 10, 3, 2)}, []string{"b>a", "c>b"}},
		{"a smaller disk between identical ones does not keep them apart",
			[]models.Disk{disk("a", 10, 10, 3, 0), disk("b", 10, 10, 2.9, 1), disk("c", 10, 10, 3, 2)}, []string{"b>a", "c>a", "c>b"}},
		{"a middle disk at the top's level is not between",
			[]models.Disk{disk("A", 0, 0, 2.5, 2), disk("B", 1, 0, 2.5, 2), disk("C", 2, 0, 2.5, 0)}, []string{"A>C", "B>C"}},
		{"a middle disk at the bottom's level is not between",
			[]models.Disk{disk("A", 0, 0, 2.5, 2), disk("B", 1, 0, 2.5, 0), disk("C", 2, 0, 2.5, 0)}, []string{"A>B", "A>C"}},
		{"z is compared as a level, not as a distance (gaps of levels mean nothing)",
			[]models.Disk{disk("A", 0, 0, 2.5, 100), disk("B", 1, 0, 2.5, 7), disk("C", 2, 0, 2.5, -5)}, []string{"A>B", "B>C"}},
		{"equal levels overlapping: neither pins",
			[]models.Disk{disk("a", 0, 0, 2, 1), disk("b", 3, 0, 2, 1)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := contactIDs(NewTable(layoutOf(tc.disks...)))
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("contacts = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestSpecReportExample reads the example of "Analysis report (JSON)"
// into a Report: every field the spec names has its place, and writing
// the report gives the same JSON back.
func TestSpecReportExample(t *testing.T) {
	const example = `{
  "rules": "whdiskwars",
  "distances": [{"a": "d1", "b": "d2", "edge_cm": 12.35}],
  "contacts": [{"top": "d3", "bottom": "d1"}],
  "engagements": [{"id": "E1", "attackers": ["d3"], "defenders": ["d1"]}],
  "embattled": ["d5"],
  "resolve_before": [["E2", "E1"]],
  "hits": [{"token": "t1", "disks": ["d2"]}],
  "damage": {"d2": 2},
  "melee": {"casualties": ["d1"], "wounds": {"d3": 1}, "damage": {"d3": 2}}
}`
	var r Report
	if err := json.Unmarshal([]byte(example), &r); err != nil {
		t.Fatal(err)
	}
	want := Report{
		Rules:         "whdiskwars",
		Distances:     []Distance{{"d1", "d2", 12.35}},
		Contacts:      []ContactIDs{{"d3", "d1"}},
		Engagements:   []Engagement{{"E1", []string{"d3"}, []string{"d1"}}},
		Embattled:     []string{"d5"},
		ResolveBefore: [][2]string{{"E2", "E1"}},
		Hits:          []Hit{{"t1", []string{"d2"}}},
		Damage:        map[string]int{"d2": 2},
		Melee:         &Melee{[]string{"d1"}, map[string]int{"d3": 1}, map[string]int{"d3": 2}},
	}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("read\n %+v\nwant\n %+v", r, want)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got, exp map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	_ = json.Unmarshal([]byte(example), &exp)
	for k, v := range exp {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("written %s = %v, want %v", k, got[k], v)
		}
	}
}

// TestSpecDistancesEveryPair follows "Analysis report": "distances: every
// pair of disks, edge_cm rounded to 0.01 cm".
func TestSpecDistancesEveryPair(t *testing.T) {
	l := layoutOf(disk("d1", 0, 0, 1, 0), disk("d2", 10.005, 0, 2, 0), disk("d3", 0, 2.5, 1.5, 1))
	rep, err := Analyze(l, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []Distance{{"d1", "d2", 7.01}, {"d1", "d3", 0}, {"d2", "d3", 6.81}}
	if !reflect.DeepEqual(rep.Distances, want) {
		t.Errorf("distances = %+v, want %+v", rep.Distances, want)
	}
}

// TestSpecRangesMeasuredEdgeToEdge follows "Geometry": "Every range in
// the rules is measured this way" (edge to edge). A disk whose edge lies
// exactly at the range as written is within it, though its distance
// computes a hair above (10.000000000000002 cm here), and one a
// hundredth of a millimetre further is not.
func TestSpecRangesMeasuredEdgeToEdge(t *testing.T) {
	tb := NewTable(layoutOf(disk("a", 0, 3, 3.175, 0), disk("b", 16.35, 3, 3.175, 0), disk("c", -16.351, 3, 3.175, 0)))
	if got := tb.IDs(tb.WithinOfDisk(0, 10)); !slices.Equal(got, []string{"b"}) {
		t.Errorf("within 10 cm of a: %v, want [b] (b's edge is 10 cm away as written)", got)
	}
	// The point (-8.175, 3) lies 5 cm from a's edge as written (5.000000000000001
	// computed) and 5.001 cm from c's.
	if got := tb.IDs(tb.WithinOfPoint(models.TablePoint{X: -8.175, Y: 3}, 5)); !slices.Equal(got, []string{"a"}) {
		t.Errorf("within 5 cm of (-8.175, 3): %v, want [a]", got)
	}
}
