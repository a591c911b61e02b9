package models

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Version is the layout file version this package reads and writes.
const Version = 1

// Disk kinds (field "kind" of a disk).
const (
	KindCreature = "creature"
	KindTerrain  = "terrain"
	KindSpell    = "spell"
	KindUnknown  = "unknown"
)

// Layout is one snapshot of a table: the disks and tokens lying on it, in
// the table frame. A Layout is a value: functions that change a table
// return a new Layout (see Clone) rather than editing a shared one.
type Layout struct {
	Version int
	// Source says where the snapshot came from ("camera:0 frame 1234",
	// "file.png", "hand-made").
	Source string
	// Units is the unit of the table frame (extension): "" or "cm" for
	// centimetres, "px" for a layout detect wrote without a calibration,
	// whose x, y and r are the image's pixels. Distances are then in
	// pixels too; the geometry is the same.
	Units string
	// Table is the size of the playing surface, when known.
	Table *TableSize
	// FirstPlayer names the player who orders engagements and shoots first.
	FirstPlayer string
	// Players lists the players in seating order, clockwise (extension).
	Players []string
	// Turn is the game turn the snapshot belongs to, 0 when unknown
	// (extension).
	Turn   int
	Disks  []Disk
	Tokens []Token
	// Extra keeps top-level fields this version does not know, so that a
	// layout read and written again loses nothing. Rulesets read their own
	// options from it (see Layout.Option).
	Extra map[string]json.RawMessage
}

// TableSize is the size of the playing surface in centimetres.
type TableSize struct {
	Width, Height Centimetres
	// Extra keeps fields of "table" this version does not know.
	Extra map[string]json.RawMessage
}

// Disk is a round piece lying flat on the table: creature, terrain or
// spell disk.
type Disk struct {
	ID   string
	Name string
	// Owner is the player the disk belongs to; Side the team. Two disks
	// are enemies when their sides differ or, with no side given, their
	// owners differ.
	Owner, Side string
	Faction     string
	// Kind is creature, terrain, spell or unknown.
	Kind string
	// Terrain is the type of a terrain disk (homeland, forest, ...).
	Terrain string
	// X, Y is the centre and R the radius, in the table frame.
	X, Y, R Centimetres
	// Z is the stacking level: where two disks overlap, the higher Z lies
	// above. Between disks that do not overlap it means nothing.
	Z int
	// Pixel is the disk as seen in the image, nil when not from vision.
	Pixel *ImageCircle
	// Rim is the rim colour class seen by vision: green, blue, black, red
	// or unknown (RimClass).
	Rim string
	// RimColour is the rim's colour as vision named it, finer than Rim
	// (extension): black, red, gold, green, blue or purple; empty when
	// unknown. A gold or purple rim's class is unknown.
	RimColour string
	Flying    bool
	// Stats holds the ruleset's integer statistics by name.
	Stats    Stats
	Keywords []string
	// State.
	Damage           int
	WoundsTaken      int
	Activated        bool
	AttackedLastTurn bool
	// Target is the id of the enemy this disk deals its damage to when it
	// must choose one.
	Target string
	// Missiles (Diskwars): kind of projectile and how many the disk drops.
	MissileKind  string
	MissileCount int
	// Extra keeps fields this version does not know.
	Extra map[string]json.RawMessage
}

// RimClass returns the rim colour class (the Rim field) of a rim colour:
// green, blue, black and red are classes of their own (the alignments of
// Diskwars); any other colour, or none, is unknown.
func RimClass(colour string) string {
	switch colour {
	case "green", "blue", "black", "red":
		return colour
	}
	return "unknown"
}

// Stats are a disk's integer statistics by name (attack, defense,
// toughness, strength, counter, ...).
type Stats map[string]int

// Token is a small flat piece dropped or laid on the table.
type Token struct {
	ID   string
	Kind string
	// X, Y, R: centre and radius of the enclosing circle, table frame.
	X, Y, R Centimetres
	// Poly is the outline when the token is not round, table frame.
	Poly  []TablePoint
	Pixel *ImageCircle
	// Value is an optional worth (a damage token worth 3).
	Value *int
	// Touches lists the ids of the disks the token touches, as vision saw
	// it; nil when absent (the engine then computes it).
	Touches []string
	// Z is the token's stacking level among tokens (extension): where two
	// tokens overlap, the higher Z lies above. Nil when unknown.
	Z *int
	// Extra keeps fields this version does not know.
	Extra map[string]json.RawMessage
}

// Projectile kinds of Diskwars, and their French names as aliases.
var projectileKinds = map[string]string{
	"arrow": "arrow", "flèche": "arrow", "fleche": "arrow",
	"bolt": "bolt", "carreau": "bolt",
	"fireball": "fireball", "boule de feu": "fireball", "boule-de-feu": "fireball",
	"boulder": "boulder", "rocher": "boulder",
}

// ProjectileKind returns the canonical projectile kind (arrow, bolt,
// fireball, boulder) of a token kind, accepting the French names, and
// whether the kind is a projectile at all.
func ProjectileKind(kind string) (string, bool) {
	k, ok := projectileKinds[strings.ToLower(strings.TrimSpace(kind))]
	return k, ok
}

// IsProjectile reports whether the token is a projectile.
func (t Token) IsProjectile() bool {
	_, ok := ProjectileKind(t.Kind)
	return ok
}

// IsTerrain reports whether the disk is a terrain disk.
func (d Disk) IsTerrain() bool {
	return d.Kind == KindTerrain || (d.Kind == "" && d.Terrain != "")
}

// Team returns the side of the disk, or its owner when no side is given.
// It names a disk's team for grouping (scores, control); whether two disks
// fight is Enemies, which compares sides only when both disks have one.
func (d Disk) Team() string {
	if d.Side != "" {
		return d.Side
	}
	return d.Owner
}

// Enemies reports whether a and b are enemies (the table model's rule):
// when both have a side, their sides differ; otherwise (one side or none
// given) their owners differ, both given. Disks of one owner are thus
// never enemies unless both have sides and the sides differ, and a disk
// with neither side nor owner is nobody's enemy.
func Enemies(a, b Disk) bool {
	if a.Side != "" && b.Side != "" {
		return a.Side != b.Side
	}
	return a.Owner != "" && b.Owner != "" && a.Owner != b.Owner
}

// HasKeyword reports whether the disk has keyword k, compared without
// regard to case. "swift" matches only "swift", not "swift:counter".
func (d Disk) HasKeyword(k string) bool {
	for _, kw := range d.Keywords {
		if strings.EqualFold(strings.TrimSpace(kw), k) {
			return true
		}
	}
	return false
}

// KeywordValue returns N for a keyword written "name:N" (for example
// "spellcaster:2"), and whether such a keyword with an integer is present.
func (d Disk) KeywordValue(name string) (int, bool) {
	prefix := strings.ToLower(name) + ":"
	for _, kw := range d.Keywords {
		kw = strings.ToLower(strings.TrimSpace(kw))
		if rest, ok := strings.CutPrefix(kw, prefix); ok {
			if n, err := strconv.Atoi(rest); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// Stat returns the named statistic and whether the disk has it.
func (d Disk) Stat(name string) (int, bool) {
	v, ok := d.Stats[name]
	return v, ok
}

// Centre returns the disk's centre in the table frame.
func (d Disk) Centre() TablePoint { return TablePoint{d.X, d.Y} }

// DiskIndex returns a map from disk id to its index in l.Disks.
func (l Layout) DiskIndex() map[string]int {
	m := make(map[string]int, len(l.Disks))
	for i, d := range l.Disks {
		m[d.ID] = i
	}
	return m
}

// Disk returns the disk with the given id.
func (l Layout) Disk(id string) (Disk, bool) {
	for _, d := range l.Disks {
		if d.ID == id {
			return d, true
		}
	}
	return Disk{}, false
}

// Option decodes the top-level field name (a ruleset's own option kept in
// Extra) into v. It reports false when the field is absent.
func (l Layout) Option(name string, v any) (bool, error) {
	raw, ok := l.Extra[name]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, &ValidationError{Object: "layout", Field: name, Problem: err.Error()}
	}
	return true, nil
}

// Clone returns a deep copy of l, so that the copy can be changed without
// touching l.
func (l Layout) Clone() Layout {
	c := l
	if l.Table != nil {
		t := *l.Table
		t.Extra = cloneRaw(l.Table.Extra)
		c.Table = &t
	}
	c.Players = cloneSlice(l.Players)
	c.Extra = cloneRaw(l.Extra)
	if l.Disks != nil {
		c.Disks = make([]Disk, len(l.Disks))
		for i, d := range l.Disks {
			c.Disks[i] = d.Clone()
		}
	}
	if l.Tokens != nil {
		c.Tokens = make([]Token, len(l.Tokens))
		for i, t := range l.Tokens {
			c.Tokens[i] = t.Clone()
		}
	}
	return c
}

// Clone returns a deep copy of d.
func (d Disk) Clone() Disk {
	c := d
	if d.Pixel != nil {
		p := *d.Pixel
		c.Pixel = &p
	}
	if d.Stats != nil {
		c.Stats = make(Stats, len(d.Stats))
		for k, v := range d.Stats {
			c.Stats[k] = v
		}
	}
	c.Keywords = cloneSlice(d.Keywords)
	c.Extra = cloneRaw(d.Extra)
	return c
}

// Clone returns a deep copy of t.
func (t Token) Clone() Token {
	c := t
	c.Poly = cloneSlice(t.Poly)
	if t.Pixel != nil {
		p := *t.Pixel
		c.Pixel = &p
	}
	if t.Value != nil {
		v := *t.Value
		c.Value = &v
	}
	if t.Z != nil {
		z := *t.Z
		c.Z = &z
	}
	c.Touches = cloneSlice(t.Touches)
	c.Extra = cloneRaw(t.Extra)
	return c
}

func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

func cloneRaw(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		c[k] = append(json.RawMessage(nil), v...)
	}
	return c
}
