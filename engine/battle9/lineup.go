package battle9

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
)

// Reasons a lineup is refused; test with errors.Is.
var (
	ErrLineup       = errors.New("invalid lineup")
	ErrUnknownRace  = errors.New("unknown race")
	ErrUnknownUnit  = errors.New("not a unit of the race")
	ErrBadCount     = errors.New("bad count")
	ErrOverBudget   = errors.New("the cost exceeds the budget")
	ErrTooManyUnits = errors.New("too many units")
	ErrBuyKing      = errors.New("you cannot buy more Kings")
)

// Lineup is an army as a player writes it down: a race and how many of
// each unit. The Kings may be left out: they are given. File form (JSON):
//
//	{"race": "dwarfs", "units": {"Warrior": 3, "Howitzer": 3, "Trapper": 3, "Runemaster": 1}}
type Lineup struct {
	Race  string         `json:"race"`
	Units map[string]int `json:"units"`
}

// Army is a checked lineup: the race, and the count of each of its units
// in table order, the free Kings included.
type Army struct {
	Race   *Race
	Counts []int
}

// Cost is what the army's units cost (Kings are free). A sum too large
// for an int is math.MaxInt: it must not wrap around to a small cost that
// passes the budget.
func (a Army) Cost() int {
	c := 0
	for i, n := range a.Counts {
		c = satAdd(c, satMul(n, a.Race.Units[i].Cost))
	}
	return c
}

// Size is the number of units, Kings included; math.MaxInt when the sum
// is too large for an int, so that it cannot wrap below the limit.
func (a Army) Size() int {
	n := 0
	for _, k := range a.Counts {
		n = satAdd(n, k)
	}
	return n
}

// satAdd is a+b for counts and costs (not negative), held at math.MaxInt
// instead of wrapping around.
func satAdd(a, b int) int {
	if a < 0 || b < 0 {
		return a + b // not a count; Army refuses negative counts first
	}
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// satMul is a*b for counts and costs (not negative), held at math.MaxInt
// instead of wrapping around.
func satMul(a, b int) int {
	if a < 0 || b < 0 {
		return a * b // not a count; Army refuses negative counts first
	}
	if a != 0 && b > math.MaxInt/a {
		return math.MaxInt
	}
	return a * b
}

// String lists the army for people: "dwarfs: 1 King, 3 Warrior, ...".
func (a Army) String() string {
	var parts []string
	for i, n := range a.Counts {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a.Race.Units[i].Name))
		}
	}
	return a.Race.Name + ": " + strings.Join(parts, ", ")
}

// LoadLineup reads a lineup file.
func LoadLineup(path string) (Lineup, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Lineup{}, fmt.Errorf("lineup: %w", err)
	}
	return ParseLineup(b, path)
}

// ParseLineup decodes a lineup; name says where it comes from in errors.
// A key given twice (a unit, "race") is refused, not read as the last.
func ParseLineup(data []byte, name string) (Lineup, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var l Lineup
	if err := dec.Decode(&l); err != nil {
		return Lineup{}, fmt.Errorf("%s: %w: %v", name, ErrLineup, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Lineup{}, fmt.Errorf("%s: %w: data after the lineup", name, ErrLineup)
	}
	if key, path, ok := repeatedKey(data, func(path string) bool { return path == "units" }); ok {
		if path == "units" {
			return Lineup{}, fmt.Errorf("%s: %w: %w: %s", name, ErrLineup, ErrBadCount, givenTwice(key, path))
		}
		return Lineup{}, fmt.Errorf("%s: %w: %s", name, ErrLineup, givenTwice(key, path))
	}
	return l, nil
}

// Army checks the lineup against the table's rules: a race of the table,
// units of that race only, counts not negative, the Kings given (not
// bought), the cost at most the budget, at most MaxUnits units with the
// Kings. Every problem found is reported, each wrapping ErrLineup and its
// reason.
func (t *Table) Army(l Lineup) (Army, error) {
	r, ok := t.Race(l.Race)
	if !ok {
		if strings.TrimSpace(l.Race) == "" {
			return Army{}, fmt.Errorf("%w: %w: choose a race first: %s", ErrLineup, ErrUnknownRace, strings.Join(t.RaceNames(), ", "))
		}
		return Army{}, fmt.Errorf("%w: %w %q: choose one of %s", ErrLineup, ErrUnknownRace, l.Race, strings.Join(t.RaceNames(), ", "))
	}
	a := Army{Race: r, Counts: make([]int, len(r.Units))}
	var errs []error
	bad := func(reason error, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %w: %s", ErrLineup, reason, fmt.Sprintf(format, args...)))
	}
	names := make([]string, 0, len(l.Units))
	for n := range l.Units {
		names = append(names, n)
	}
	slices.Sort(names)
	listed := make([]bool, len(r.Units))
	for _, n := range names {
		count := l.Units[n]
		u, ok := r.Unit(n)
		if !ok {
			bad(ErrUnknownUnit, "%q is not a unit of the %s (they have %s)", n, r.Name, unitNames(r))
			continue
		}
		i := slices.Index(r.Units, u)
		if listed[i] {
			bad(ErrBadCount, "%s listed twice", u.Name)
			continue
		}
		listed[i] = true
		if count < 0 {
			bad(ErrBadCount, "%d %s: a count cannot be negative", count, u.Name)
			continue
		}
		// "The army can have 27 units at most (including the King)": a
		// larger count of one unit can never fit, whatever the others.
		if count > t.MaxUnits {
			bad(ErrTooManyUnits, "%d %s: the army can have %d units at most", count, u.Name, t.MaxUnits)
			continue
		}
		if u.King && count != 0 && count != r.kings() {
			bad(ErrBuyKing, "%d %s: the %s get %d, given not bought; leave the King out or write %d", count, u.Name, r.Name, r.kings(), r.kings())
			continue
		}
		a.Counts[i] = count
	}
	a.Counts[slices.Index(r.Units, r.King())] = r.kings()
	if c := a.Cost(); c > t.Budget {
		bad(ErrOverBudget, "the units cost %d; in sum the cost can't exceed %d", c, t.Budget)
	}
	if n := a.Size(); n > t.MaxUnits {
		bad(ErrTooManyUnits, "%d units with the King; the army can have %d at most", n, t.MaxUnits)
	}
	if len(errs) > 0 {
		return Army{}, errors.Join(errs...)
	}
	return a, nil
}

// recheck applies the lineup rules of Army to an army that may have been
// built by hand (its Counts in t's table order, as NewSetup checks): the
// same counts written as a lineup must pass Army and give the same army,
// the given Kings included.
func (t *Table) recheck(a Army) error {
	r, _ := t.Race(a.Race.Name)
	l := Lineup{Race: r.Name, Units: map[string]int{}}
	for i, n := range a.Counts {
		if n != 0 {
			l.Units[r.Units[i].Name] = n
		}
	}
	checked, err := t.Army(l)
	if err != nil {
		return err
	}
	if k := slices.Index(r.Units, r.King()); a.Counts[k] != checked.Counts[k] {
		return fmt.Errorf("%w: %w: %d %s: the %s are given %d, an army always has them", ErrLineup, ErrBadCount, a.Counts[k], r.King().Name, r.Name, r.kings())
	}
	return nil
}

func unitNames(r *Race) string {
	var n []string
	for _, u := range r.Units {
		n = append(n, u.Name)
	}
	return strings.Join(n, ", ")
}
