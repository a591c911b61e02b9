package battle9

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode"
)

// defaultUnitsJSON is the default unit table. The source's move diagrams
// are missing, so every move and cost in it is a default built from the
// text, to be checked against the printed rules.
//
//go:embed units.json
var defaultUnitsJSON []byte

// ErrTable marks an invalid unit table.
var ErrTable = errors.New("invalid unit table")

// Table is the unit table: the budget and unit limit of a lineup and the
// races with their units. It is read-only once loaded and safe for
// concurrent use.
type Table struct {
	// Note says where the table comes from (the default says it is a
	// default to be checked against the printed rules).
	Note string `json:"note,omitempty"`
	// Budget is the most a lineup may cost ("in sum the cost can't exceed 50").
	Budget int `json:"budget"`
	// MaxUnits is the most units of a lineup, Kings included ("27 units at most").
	MaxUnits int `json:"maxUnits"`
	// Races are the races a player may choose from.
	Races []*Race `json:"races"`
}

// Race is one race and its units.
type Race struct {
	Name string `json:"name"`
	// FreeKings is how many Kings a player of this race gets for free
	// (omitted: 1). Elves have several; with several Kings only the last
	// one must not be left capturable.
	FreeKings int     `json:"freeKings,omitempty"`
	Units     []*Unit `json:"units"`
	Note      string  `json:"note,omitempty"`
}

// Unit is one kind of unit. Directions are those of the first player:
// F is forward (towards row 9), B back, L left (towards file a), R right,
// FL, FR, BL, BR the diagonals; the groups "orth", "diag" and "all" stand
// for four, four and eight of them.
type Unit struct {
	Name string `json:"name"`
	// Letter is the unit's letter in the text form of a position, unique
	// in its race (upper case for the first player, lower case for the second).
	Letter string `json:"letter"`
	// Cost counts towards the budget; a King costs nothing (it is given).
	Cost int  `json:"cost"`
	King bool `json:"king,omitempty"`
	// Like names another unit of the race whose moves this one has too
	// ("A troll moves like an orc").
	Like string `json:"like,omitempty"`
	// Dots: one square in each of these directions.
	Dots []string `json:"dots,omitempty"`
	// Arrows: any number of squares in each of these directions, as long
	// as no unit is in between.
	Arrows []string `json:"arrows,omitempty"`
	// Jumps: leaps to [x, y] (x to the right, y forward) over any unit in
	// between (the Mage's and the Runemaster's special moves).
	Jumps [][2]int `json:"jumps,omitempty"`
	// Double: the unit may move again when its first move captured
	// nothing (the Troll).
	Double bool `json:"double,omitempty"`
	// Explode is the radius of the unit's explosion (2 for the Shaman's
	// 5x5 area), 0 for none.
	Explode int    `json:"explode,omitempty"`
	Note    string `json:"note,omitempty"`

	steps, slides, leaps []vec // resolved moves, first player's frame
}

// vec is a displacement in files (x, to the right) and rows (y, forward)
// for the first player.
type vec struct{ x, y int }

var dirNames = map[string][]vec{
	"F": {{0, 1}}, "B": {{0, -1}}, "L": {{-1, 0}}, "R": {{1, 0}},
	"FL": {{-1, 1}}, "FR": {{1, 1}}, "BL": {{-1, -1}}, "BR": {{1, -1}},
	"orth": {{0, 1}, {0, -1}, {-1, 0}, {1, 0}},
	"diag": {{-1, 1}, {1, 1}, {-1, -1}, {1, -1}},
	"all":  {{0, 1}, {0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {1, 1}, {-1, -1}, {1, -1}},
}

// DefaultTable is the embedded default unit table, shared and read-only.
var DefaultTable = sync.OnceValue(func() *Table {
	t, err := ParseTable(defaultUnitsJSON, "default unit table")
	if err != nil {
		panic(fmt.Sprintf("battle9: embedded default table: %v", err)) // a build defect, covered by tests
	}
	return t
})

// DefaultTableJSON is the embedded default unit table as written.
func DefaultTableJSON() []byte { return bytes.Clone(defaultUnitsJSON) }

// LoadTable reads and validates a unit table file.
func LoadTable(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("unit table: %w", err)
	}
	return ParseTable(b, path)
}

// ParseTable decodes and validates a unit table; name says where it comes
// from in error messages. Unknown fields are errors (a misspelt field
// would otherwise be silently ignored), and so is a field given twice
// (the last would otherwise silently win).
func ParseTable(data []byte, name string) (*Table, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var t Table
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s: %w: %v", name, ErrTable, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("%s: %w: data after the table", name, ErrTable)
	}
	if key, path, ok := repeatedKey(data, func(string) bool { return false }); ok {
		return nil, fmt.Errorf("%s: %w: %s", name, ErrTable, givenTwice(key, path))
	}
	if err := t.resolve(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &t, nil
}

// Marshal writes the table as indented JSON, as it was read.
func (t *Table) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Race finds a race by name, case-insensitively.
func (t *Table) Race(name string) (*Race, bool) {
	for _, r := range t.Races {
		if strings.EqualFold(r.Name, name) {
			return r, true
		}
	}
	return nil, false
}

// RaceNames lists the races in table order.
func (t *Table) RaceNames() []string {
	names := make([]string, len(t.Races))
	for i, r := range t.Races {
		names[i] = r.Name
	}
	return names
}

// Unit finds a unit of the race by name, case-insensitively; a plural
// ending in "s" is accepted too, in any case ("Warriors", "WARRIORS").
func (r *Race) Unit(name string) (*Unit, bool) {
	singular := name
	if n := len(name); n > 0 && (name[n-1] == 's' || name[n-1] == 'S') {
		singular = name[:n-1]
	}
	for _, try := range []string{name, singular} {
		for _, u := range r.Units {
			if strings.EqualFold(u.Name, try) {
				return u, true
			}
		}
	}
	return nil, false
}

// King is the race's King unit.
func (r *Race) King() *Unit {
	for _, u := range r.Units {
		if u.King {
			return u
		}
	}
	return nil
}

func (r *Race) kings() int {
	if r.FreeKings == 0 {
		return 1
	}
	return r.FreeKings
}

// Kings is how many Kings a player of the race gets.
func (r *Race) Kings() int { return r.kings() }

func (r *Race) byLetter(c byte) (int, bool) {
	for i, u := range r.Units {
		if strings.EqualFold(u.Letter, string(c)) {
			return i, true
		}
	}
	return 0, false
}

func tableErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTable, fmt.Sprintf(format, args...))
}

// resolve validates the table and computes each unit's move vectors.
func (t *Table) resolve() error {
	if t.Budget <= 0 {
		return tableErr("budget %d: want a positive number (the rules say 50)", t.Budget)
	}
	if t.MaxUnits <= 0 {
		return tableErr("maxUnits %d: want a positive number (the rules say 27)", t.MaxUnits)
	}
	if len(t.Races) == 0 {
		return tableErr("no races")
	}
	seen := map[string]bool{}
	for i, r := range t.Races {
		if r == nil || strings.TrimSpace(r.Name) == "" {
			return tableErr("race %d has no name", i+1)
		}
		// A position names its races as FIRST:SECOND in one field.
		if strings.ContainsFunc(r.Name, unicode.IsSpace) {
			return tableErr("race %q: a race name cannot hold white space (positions write FIRST:SECOND as one word)", r.Name)
		}
		if strings.Contains(r.Name, ":") {
			return tableErr("race %q: a race name cannot hold ':' (positions write FIRST:SECOND)", r.Name)
		}
		key := strings.ToLower(r.Name)
		if seen[key] {
			return tableErr("race %q listed twice", r.Name)
		}
		seen[key] = true
		if err := r.resolve(t.MaxUnits); err != nil {
			return fmt.Errorf("race %q: %w", r.Name, err)
		}
	}
	return nil
}

func (r *Race) resolve(maxUnits int) error {
	if r.FreeKings < 0 || r.kings() > maxUnits {
		return tableErr("freeKings %d: want 1 to %d", r.FreeKings, maxUnits)
	}
	if err := r.checkNames(); err != nil {
		return err
	}
	for _, u := range r.Units {
		if err := u.resolveOwn(); err != nil {
			return fmt.Errorf("unit %q: %w", u.Name, err)
		}
	}
	for _, u := range r.Units {
		if err := r.resolveLike(u); err != nil {
			return fmt.Errorf("unit %q: %w", u.Name, err)
		}
	}
	return nil
}

// checkNames checks names, letters, costs and that there is one King.
func (r *Race) checkNames() error {
	names, letters, kings := map[string]bool{}, map[string]bool{}, 0
	for i, u := range r.Units {
		if u == nil || strings.TrimSpace(u.Name) == "" {
			return tableErr("unit %d has no name", i+1)
		}
		n, l := strings.ToLower(u.Name), strings.ToUpper(u.Letter)
		if names[n] {
			return tableErr("unit %q listed twice", u.Name)
		}
		if len(l) != 1 || l[0] < 'A' || l[0] > 'Z' {
			return tableErr("unit %q: letter %q: want one letter A-Z", u.Name, u.Letter)
		}
		if letters[l] {
			return tableErr("unit %q: letter %q already used in the race", u.Name, u.Letter)
		}
		names[n], letters[l] = true, true
		if u.Cost < 0 {
			return tableErr("unit %q: negative cost %d", u.Name, u.Cost)
		}
		if u.King {
			kings++
			if u.Cost != 0 {
				return tableErr("unit %q: a King is given, not bought: cost must be 0, not %d", u.Name, u.Cost)
			}
		}
	}
	if kings != 1 {
		return tableErr("%d units marked king: want exactly one", kings)
	}
	return nil
}

// resolveOwn computes the unit's own moves (without Like).
func (u *Unit) resolveOwn() error {
	var err error
	if u.steps, err = dirVecs(u.Dots, "dots"); err != nil {
		return err
	}
	if u.slides, err = dirVecs(u.Arrows, "arrows"); err != nil {
		return err
	}
	u.leaps = nil
	for _, j := range u.Jumps {
		v := vec{j[0], j[1]}
		d := max(abs(v.x), abs(v.y))
		if d < 2 || d >= Size {
			return tableErr("jump %v: want a leap of 2 to %d squares (use dots for one square)", j, Size-1)
		}
		if hasVec(u.leaps, v) {
			return tableErr("jump %v listed twice", j)
		}
		u.leaps = append(u.leaps, v)
	}
	if u.Explode < 0 || u.Explode >= Size {
		return tableErr("explode %d: want 0 (none) to %d (radius: 2 is a 5x5 area)", u.Explode, Size-1)
	}
	return nil
}

func (r *Race) resolveLike(u *Unit) error {
	if u.Like != "" {
		base, ok := r.Unit(u.Like)
		switch {
		case !ok || !strings.EqualFold(base.Name, u.Like):
			return tableErr("like %q: no such unit in the race", u.Like)
		case base == u:
			return tableErr("like %q: a unit cannot move like itself", u.Like)
		case base.Like != "":
			return tableErr("like %q: that unit itself moves like %q; name the unit it copies", u.Like, base.Like)
		}
		u.steps = mergeVecs(u.steps, base.steps)
		u.slides = mergeVecs(u.slides, base.slides)
		u.leaps = mergeVecs(u.leaps, base.leaps)
	}
	if len(u.steps)+len(u.slides)+len(u.leaps) == 0 && u.Explode == 0 {
		return tableErr("no moves: give dots, arrows, jumps, like or explode")
	}
	return nil
}

func dirVecs(names []string, field string) ([]vec, error) {
	var out []vec
	for _, n := range names {
		vs, ok := dirNames[n]
		if !ok {
			return nil, tableErr("%s: direction %q: want F, B, L, R, FL, FR, BL, BR, orth, diag or all", field, n)
		}
		for _, v := range vs {
			if hasVec(out, v) {
				return nil, tableErr("%s: direction %q given twice", field, n)
			}
			out = append(out, v)
		}
	}
	return out, nil
}

func hasVec(vs []vec, v vec) bool {
	for _, w := range vs {
		if w == v {
			return true
		}
	}
	return false
}

func mergeVecs(own, more []vec) []vec {
	out := append([]vec(nil), own...)
	for _, v := range more {
		if !hasVec(out, v) {
			out = append(out, v)
		}
	}
	return out
}
