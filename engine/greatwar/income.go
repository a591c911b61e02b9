package greatwar

import (
	"cmp"
	"fmt"
	"slices"

	"tableref/engine"
	"tableref/models"
)

// Conquest records a conquered homeland: who conquered it, of which
// faction, and in which turn.
type Conquest struct {
	By        string  `json:"by"`
	ByFaction Faction `json:"by_faction"`
	Turn      int     `json:"turn"`
}

// Source is one line of income: gold a player collects from one source.
type Source struct {
	Player string `json:"player"`
	// Source says where the gold comes from: "homeland", "forest",
	// "lake", "mountain" (harvesting), "plunder" (Uthuk on a conquered
	// homeland), or what an event names.
	Source string `json:"source"`
	Gold   int    `json:"gold"`
	// Terrain is the id of the terrain disk, when the gold comes from
	// one.
	Terrain string `json:"terrain,omitempty"`
}

// Blocked is a terrain whose harvest an enemy stops: "no income is
// generated if there are equal or more enemy disks touching the terrain
// as there are harvesters".
type Blocked struct {
	Terrain    string    `json:"terrain"`
	Alignment  Alignment `json:"alignment"`
	Harvesters int       `json:"harvesters"`
	Enemies    int       `json:"enemies"`
}

// Income is the gold each player collects at the end of a turn, with its
// sources.
type Income struct {
	Income  map[string]int `json:"income"`
	Sources []Source       `json:"sources"`
	Blocked []Blocked      `json:"blocked,omitempty"`
	// Notes explain gold not collected (a conquered homeland, Uthuk's
	// barren homeland).
	Notes []string `json:"notes,omitempty"`
}

// Gold values of the income rules.
const (
	HomelandGold = 1 // "each homeland automatically generates an income of 1 Gold per turn"
	HarvestGold  = 1 // "it will generate 1 additional Gold for him"
	DoubleGold   = 2 // Orcs' homeland, Elves in a wood, Dwarves on a mountain
	PlunderGold  = 3 // Uthuk harvesting a homeland they conquered
)

// IncomeOptions are the campaign's choices for the income.
type IncomeOptions struct {
	// Harvesters are extra unit names that harvest (for disks of later
	// expansions); the text's list is always included.
	Harvesters []string `json:"harvesters,omitempty"`
}

// ComputeIncome returns the income of every player at the end of the
// turn shown by the table. conquered maps a homeland's owner to its
// conquest (nil when none is conquered). Players are the owners of the
// homelands; a disk touches a terrain when it lies on it (engine OnTop).
func ComputeIncome(t *engine.Table, conquered map[string]Conquest, opt IncomeOptions) (Income, error) {
	players, err := PlayersOf(t.Layout())
	if err != nil {
		return Income{}, err
	}
	c := incomeCalc{t: t, players: players, roster: newRoster(players), conquered: conquered, opt: opt, out: Income{Income: map[string]int{}}}
	for _, p := range players {
		c.out.Income[p.Name] = 0
		c.homeland(p)
	}
	for i := range t.Len() {
		c.harvest(i)
	}
	slices.SortStableFunc(c.out.Sources, func(a, b Source) int { return cmp.Compare(a.Player, b.Player) })
	return c.out, nil
}

type incomeCalc struct {
	t         *engine.Table
	players   []Player
	roster    roster
	conquered map[string]Conquest
	opt       IncomeOptions
	out       Income
}

func (c *incomeCalc) add(s Source) {
	c.out.Sources = append(c.out.Sources, s)
	c.out.Income[s.Player] += s.Gold
}

func (c *incomeCalc) isConquered(player string) bool {
	_, ok := c.conquered[player]
	return ok
}

// homeland: 1 gold, Orcs 2, Uthuk none; nothing from a conquered homeland.
func (c *incomeCalc) homeland(p Player) {
	switch {
	case c.isConquered(p.Name):
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("%s: homeland conquered by %s, no income", p.Name, c.conquered[p.Name].By))
	case p.Faction == Uthuk:
		c.out.Notes = append(c.out.Notes, fmt.Sprintf("%s: the Uthuk homeland is not fertile, no income from it", p.Name))
	case p.Faction == Orcs:
		c.add(Source{Player: p.Name, Source: Homeland, Gold: DoubleGold, Terrain: p.Homeland})
	default:
		c.add(Source{Player: p.Name, Source: Homeland, Gold: HomelandGold, Terrain: p.Homeland})
	}
}

// harvestKind returns what terrain disk i yields to harvesters: forest,
// lake, mountain (the Elves' homeland counts as a wood, the Dragons' as a
// mountain), plunder (a homeland the Uthuk conquered), or "".
func (c *incomeCalc) harvestKind(i int) string {
	d := c.t.Disk(i)
	if !d.IsTerrain() {
		return ""
	}
	switch k := NormalTerrain(d.Terrain); k {
	case Forest, Lake, Mountain:
		return k
	case Homeland:
		if q, ok := c.conquered[d.Owner]; ok && q.ByFaction == Uthuk {
			return "plunder"
		}
		switch c.roster[d.Owner].Faction {
		case Elves:
			return Forest
		case Dragons:
			return Mountain
		}
	}
	return ""
}

// touching counts, by alignment, the units and the harvesters touching
// terrain i, and lists the harvesters' owners.
type touching struct {
	units, harvesters map[Alignment]int
	harvestersOf      map[string]bool
}

func (c *incomeCalc) touching(ti int, kind string) touching {
	tc := touching{units: map[Alignment]int{}, harvesters: map[Alignment]int{}, harvestersOf: map[string]bool{}}
	for i := range c.t.Len() {
		d := c.t.Disk(i)
		if i == ti || !isUnit(d) || !c.t.OnTop(i, ti) {
			continue
		}
		a, ok := c.roster.alignmentOf(d)
		if !ok {
			continue
		}
		tc.units[a]++
		if IsHarvester(d, c.opt.Harvesters) && c.mayHarvest(d, kind) {
			tc.harvesters[a]++
			tc.harvestersOf[d.Owner] = true
		}
	}
	return tc
}

// mayHarvest: only the Uthuk plunder conquered homelands.
func (c *incomeCalc) mayHarvest(d models.Disk, kind string) bool {
	p, ok := c.roster[d.Owner]
	return ok && (kind != "plunder" || p.Faction == Uthuk)
}

func (c *incomeCalc) harvest(ti int) {
	kind := c.harvestKind(ti)
	if kind == "" {
		return
	}
	tc := c.touching(ti, kind)
	id := c.t.ID(ti)
	for _, a := range []Alignment{Good, Evil} {
		h, enemies := tc.harvesters[a], tc.units[a.Other()]
		if h == 0 {
			continue
		}
		if enemies >= h {
			c.out.Blocked = append(c.out.Blocked, Blocked{Terrain: id, Alignment: a, Harvesters: h, Enemies: enemies})
			continue
		}
		for _, p := range c.players {
			if p.Alignment == a && tc.harvestersOf[p.Name] && !c.isConquered(p.Name) {
				c.add(Source{Player: p.Name, Source: kind, Gold: harvestGold(p.Faction, kind), Terrain: id})
			}
		}
	}
}

// harvestGold is the gold one player collects from one harvested terrain.
func harvestGold(f Faction, kind string) int {
	switch {
	case kind == "plunder":
		return PlunderGold
	case kind == Forest && f == Elves, kind == Mountain && f == Dwarves:
		return DoubleGold
	}
	return HarvestGold
}
