package models

import "testing"

// TestEnemies follows the table model (shared/spec/table-model.md, "A
// disk"): "Two disks are enemies when their sides differ, or, where no
// side is given, their owners differ." Sides are compared only when both
// disks have one; otherwise owners are, and an owner missing on either
// disk makes them nobody's enemies.
func TestEnemies(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b Disk
		want bool
	}{
		{"owners differ, no sides", Disk{Owner: "ann"}, Disk{Owner: "bob"}, true},
		{"same owner, no sides", Disk{Owner: "ann"}, Disk{Owner: "ann"}, false},
		{"sides equal, owners differ: allies", Disk{Owner: "ann", Side: "good"}, Disk{Owner: "bob", Side: "good"}, false},
		{"sides differ, owners differ", Disk{Owner: "ann", Side: "good"}, Disk{Owner: "bob", Side: "evil"}, true},
		{"sides differ, one owner", Disk{Owner: "ann", Side: "good"}, Disk{Owner: "ann", Side: "evil"}, true},
		{"sides differ, no owners", Disk{Side: "good"}, Disk{Side: "evil"}, true},
		{"one side only, same owner: own disks never fight", Disk{Owner: "ann", Side: "good"}, Disk{Owner: "ann"}, false},
		{"one side only, same owner, the other way", Disk{Owner: "ann"}, Disk{Owner: "ann", Side: "good"}, false},
		{"one side only, owners differ", Disk{Owner: "ann", Side: "good"}, Disk{Owner: "bob"}, true},
		{"one side only, the sided disk has no owner", Disk{Side: "good"}, Disk{Owner: "bob"}, false},
		{"no owner, no side", Disk{}, Disk{Owner: "bob"}, false},
		{"nothing on either", Disk{}, Disk{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Enemies(tc.a, tc.b); got != tc.want {
				t.Errorf("Enemies(%+v, %+v) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
			if got := Enemies(tc.b, tc.a); got != tc.want {
				t.Errorf("Enemies(%+v, %+v) = %v, want %v (symmetric)", tc.b, tc.a, got, tc.want)
			}
		})
	}
}
