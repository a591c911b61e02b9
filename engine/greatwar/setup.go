package greatwar

import (
	"fmt"
	"math"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Problem is one setup rule the table breaks.
type Problem struct {
	Rule    string   `json:"rule"`
	Disks   []string `json:"disks,omitempty"`
	Message string   `json:"message"`
}

// Distances of the setup rules, edge to edge.
const (
	TerrainSpacing  models.Centimetres = 10 // "at least 10 cm to any other terrain"
	HomelandSpacing models.Centimetres = 20 // "and of 20 cm to homelands"
	ArmyRadius      models.Centimetres = 10 // "placed on or within a radius of 10 cm of his homeland"
)

// CheckSetup checks a table at the start of the campaign against the
// text's set-up rules and returns every problem found (none when the
// setup is legal). An error means the table cannot be read as a Great
// War setup at all (no homeland, an unknown faction).
func CheckSetup(t *engine.Table) ([]Problem, error) {
	players, err := PlayersOf(t.Layout())
	if err != nil {
		return nil, err
	}
	s := setupCheck{t: t, players: players, roster: newRoster(players)}
	s.alignments()
	s.blocks()
	s.terrains()
	s.spacing()
	s.centralMountain()
	s.armies()
	return s.problems, nil
}

type setupCheck struct {
	t        *engine.Table
	players  []Player
	roster   roster
	problems []Problem
}

func (s *setupCheck) fail(rule string, disks []string, format string, args ...any) {
	s.problems = append(s.problems, Problem{Rule: rule, Disks: disks, Message: fmt.Sprintf(format, args...)})
}

// alignments: "there must be as many good factions as there are evil
// factions".
func (s *setupCheck) alignments() {
	n := map[Alignment]int{}
	for _, p := range s.players {
		n[p.Alignment]++
	}
	if n[Good] != n[Evil] || n[Good] == 0 {
		s.fail("alignments", nil, "as many good factions as evil ones are needed: %d good, %d evil", n[Good], n[Evil])
	}
}

// blocks: "the factions should be placed as blocks with good-aligned
// factions on the one side and evil-aligned factions on the other": going
// round the table centre, the alignment of the homelands changes at most
// twice.
func (s *setupCheck) blocks() {
	if len(s.players) < 4 {
		return
	}
	c := s.centre()
	type hl struct {
		angle float64
		a     Alignment
	}
	var hs []hl
	for _, p := range s.players {
		d, _ := s.t.Layout().Disk(p.Homeland)
		hs = append(hs, hl{math.Atan2(float64(d.Y-c.Y), float64(d.X-c.X)), p.Alignment})
	}
	slices.SortFunc(hs, func(a, b hl) int { return cmpF(a.angle, b.angle) })
	changes := 0
	for i := range hs {
		if hs[i].a != hs[(i+1)%len(hs)].a {
			changes++
		}
	}
	if changes > 2 {
		s.fail("homeland blocks", nil, "good and evil homelands alternate around the table: place them as two blocks")
	}
}

func cmpF(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// centre is the middle of the table: from its size when known, else the
// middle of the homelands.
func (s *setupCheck) centre() models.TablePoint {
	l := s.t.Layout()
	if l.Table != nil && l.Table.Width > 0 && l.Table.Height > 0 {
		return models.TablePoint{X: l.Table.Width / 2, Y: l.Table.Height / 2}
	}
	var x, y models.Centimetres
	for _, p := range s.players {
		d, _ := l.Disk(p.Homeland)
		x, y = x+d.X, y+d.Y
	}
	n := models.Centimetres(len(s.players))
	return models.TablePoint{X: x / n, Y: y / n}
}

// placed returns the indices of the terrain disks other than homelands.
func (s *setupCheck) placed() []int {
	var out []int
	for i, d := range s.t.Disks() {
		if d.IsTerrain() && NormalTerrain(d.Terrain) != Homeland {
			out = append(out, i)
		}
	}
	return out
}

// terrains: the number each player places, one of each kind, and the
// kinds each alignment may choose.
func (s *setupCheck) terrains() {
	per := TerrainsPerPlayer(len(s.players))
	kinds := map[string][]string{}
	for _, i := range s.placed() {
		d := s.t.Disk(i)
		if d.Owner == "" {
			s.ownerless(d)
			continue
		}
		p, ok := s.roster[d.Owner]
		if !ok {
			s.fail("terrain owner", []string{d.ID}, "terrain %s belongs to %s, who has no homeland", d.ID, d.Owner)
			continue
		}
		k := NormalTerrain(d.Terrain)
		if slices.Contains(kinds[p.Name], k) {
			s.fail("terrain once", []string{d.ID}, "%s places a second %s: each terrain kind only once", p.Name, k)
		}
		kinds[p.Name] = append(kinds[p.Name], k)
		if !MayChoose(p.Alignment, k) {
			s.fail("terrain alignment", []string{d.ID}, "%s is %s and may not place a %s", p.Name, p.Alignment, k)
		}
	}
	for _, p := range s.players {
		if n := len(kinds[p.Name]); n > per {
			s.fail("terrain count", nil, "%s places %d terrains; with %d factions each player places %d", p.Name, n, len(s.players), per)
		}
	}
}

// ownerless checks a placed terrain with no owner. Only the central
// mountain has none ("In the middle of the table, a single
// Mountain-terrain is placed"; ownerless mountains are counted and placed
// by centralMountain); every other terrain is placed by a player, within
// his number and the kinds his alignment may choose ("2 terrains may be
// placed by each faction's player", "Evil players may not chose ... a
// Forest or a Good Temple, Good players may not chose a Scorched Valley or
// an Evil Temple"), which cannot be checked without its owner.
func (s *setupCheck) ownerless(d models.Disk) {
	if NormalTerrain(d.Terrain) == Mountain {
		return
	}
	s.fail("terrain owner", []string{d.ID}, "terrain %s (%s) has no owner: only the central mountain has none; give the player who placed it as its owner", d.ID, NormalTerrain(d.Terrain))
}

// spacing: 10 cm between terrains, 20 cm from homelands.
func (s *setupCheck) spacing() {
	placed := s.placed()
	for a, i := range placed {
		for _, j := range placed[a+1:] {
			if e := s.t.Edge(i, j); e < TerrainSpacing {
				s.fail("terrain spacing", []string{s.t.ID(i), s.t.ID(j)}, "terrains %s and %s are %.2f cm apart, at least %.0f cm needed", s.t.ID(i), s.t.ID(j), e, TerrainSpacing)
			}
		}
		for _, p := range s.players {
			hi, _ := s.t.Index(p.Homeland)
			if e := s.t.Edge(i, hi); e < HomelandSpacing {
				s.fail("homeland spacing", []string{s.t.ID(i), p.Homeland}, "terrain %s is %.2f cm from the homeland %s, at least %.0f cm needed", s.t.ID(i), e, p.Homeland, HomelandSpacing)
			}
		}
	}
}

// centralMountain: "In the middle of the table, a single Mountain-terrain
// is placed" (a mountain with no owner, covering the table's centre).
func (s *setupCheck) centralMountain() {
	var found []string
	c := s.centre()
	for _, i := range s.placed() {
		d := s.t.Disk(i)
		if d.Owner != "" || NormalTerrain(d.Terrain) != Mountain {
			continue
		}
		found = append(found, d.ID)
		if math.Hypot(float64(d.X-c.X), float64(d.Y-c.Y)) > float64(d.R) {
			s.fail("central mountain", []string{d.ID}, "the central mountain %s does not cover the middle of the table (%.1f, %.1f)", d.ID, c.X, c.Y)
		}
	}
	if len(found) != 1 {
		s.fail("central mountain", found, "a single mountain with no owner must lie in the middle of the table, found %d", len(found))
	}
}
