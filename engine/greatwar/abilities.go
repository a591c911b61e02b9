package greatwar

import (
	"tableref/engine"
	"tableref/models"
)

// Modifier is a change to a disk's statistic from a homeland ability.
type Modifier struct {
	Disk   string `json:"disk"`
	Stat   string `json:"stat"` // attack, defense, toughness
	Delta  int    `json:"delta"`
	Source string `json:"source"`
}

// Abilities are the effects of the homeland abilities on the table.
type Abilities struct {
	Modifiers []Modifier `json:"modifiers,omitempty"`
	// Heal lists the wounded good disks that may heal 1 wound this turn
	// at the Acolytes' homeland.
	Heal []string `json:"heal,omitempty"`
	// MinerEntries maps the Dwarves player to the mountains where he may
	// bring new units into play.
	MinerEntries map[string][]string `json:"miner_entries,omitempty"`
	// GuardsLost lists the Undead's free homeland guards (keyword
	// "homeland-guard") that left the homeland and are removed.
	GuardsLost []string `json:"guards_lost,omitempty"`
}

// HomelandAbilities computes the homeland abilities the table shows:
//   - Knights: "All disks of players of good alignment touching the
//     Knights' homeland gain +1 D and T";
//   - Acolytes (disciples): good disks touching the homeland heal 1 wound
//     per turn "as long as no evil-aligned disk touches this homeland";
//   - Undead: "Disks of all players except the Undead player fight at -1 A
//     while touching their homeland"; its free units never leave it;
//   - Dwarves: with a Dwarven Miner on their homeland and one on a
//     mountain, new units may enter on that mountain.
func HomelandAbilities(t *engine.Table) (Abilities, error) {
	players, err := PlayersOf(t.Layout())
	if err != nil {
		return Abilities{}, err
	}
	r := newRoster(players)
	var ab Abilities
	for _, p := range players {
		hi, _ := t.Index(p.Homeland)
		on := unitsOn(t, hi)
		switch p.Faction {
		case Knights:
			ab.knights(t, r, on)
		case Disciples:
			ab.acolytes(t, r, on)
		case Undead:
			ab.undead(t, p, on)
		case Dwarves:
			ab.dwarves(t, p, on)
		}
	}
	return ab, nil
}

// unitsOn lists the units touching terrain disk ti.
func unitsOn(t *engine.Table, ti int) []int {
	var out []int
	for i := range t.Len() {
		if i != ti && isUnit(t.Disk(i)) && t.OnTop(i, ti) {
			out = append(out, i)
		}
	}
	return out
}

func (ab *Abilities) knights(t *engine.Table, r roster, on []int) {
	for _, i := range on {
		if a, ok := r.alignmentOf(t.Disk(i)); ok && a == Good {
			ab.Modifiers = append(ab.Modifiers,
				Modifier{t.ID(i), "defense", 1, "Knights' homeland"},
				Modifier{t.ID(i), "toughness", 1, "Knights' homeland"})
		}
	}
}

func (ab *Abilities) acolytes(t *engine.Table, r roster, on []int) {
	var wounded []string
	for _, i := range on {
		d := t.Disk(i)
		a, ok := r.alignmentOf(d)
		if ok && a == Evil {
			return
		}
		if ok && a == Good && d.WoundsTaken > 0 {
			wounded = append(wounded, d.ID)
		}
	}
	ab.Heal = append(ab.Heal, wounded...)
}

func (ab *Abilities) undead(t *engine.Table, p Player, on []int) {
	onHome := map[int]bool{}
	for _, i := range on {
		onHome[i] = true
		if t.Disk(i).Owner != p.Name {
			ab.Modifiers = append(ab.Modifiers, Modifier{t.ID(i), "attack", -1, "Undead homeland"})
		}
	}
	for i := range t.Len() {
		d := t.Disk(i)
		if d.Owner == p.Name && d.HasKeyword("homeland-guard") && !onHome[i] {
			ab.GuardsLost = append(ab.GuardsLost, d.ID)
		}
	}
}

func (ab *Abilities) dwarves(t *engine.Table, p Player, on []int) {
	isMiner := func(d models.Disk) bool { return d.Owner == p.Name && NormalName(d.Name) == DwarvenMiner }
	home := false
	for _, i := range on {
		home = home || isMiner(t.Disk(i))
	}
	if !home {
		return
	}
	for ti := range t.Len() {
		d := t.Disk(ti)
		if !d.IsTerrain() || NormalTerrain(d.Terrain) != Mountain {
			continue
		}
		for _, i := range unitsOn(t, ti) {
			if isMiner(t.Disk(i)) {
				if ab.MinerEntries == nil {
					ab.MinerEntries = map[string][]string{}
				}
				ab.MinerEntries[p.Name] = append(ab.MinerEntries[p.Name], d.ID)
				break
			}
		}
	}
}
