package greatwar

import (
	"fmt"
	"slices"

	"tableref/models"
)

// Player is the player of one faction. A person playing two factions
// plays two players (give each homeland its own `owner`).
type Player struct {
	Name      string    `json:"name"`
	Faction   Faction   `json:"faction"`
	Alignment Alignment `json:"alignment"`
	// Homeland is the id of the homeland disk, when read from a layout.
	Homeland string `json:"homeland,omitempty"`
}

// NewPlayer builds a player from names, taking the faction's usual
// alignment when alignment is empty.
func NewPlayer(name, faction, alignment string) (Player, error) {
	if name == "" {
		return Player{}, fmt.Errorf("a player has no name")
	}
	f, err := ParseFaction(faction)
	if err != nil {
		return Player{}, fmt.Errorf("player %s: %w", name, err)
	}
	a := f.DefaultAlignment()
	if alignment != "" {
		if a, err = ParseAlignment(alignment); err != nil {
			return Player{}, fmt.Errorf("player %s: %w", name, err)
		}
	}
	return Player{Name: name, Faction: f, Alignment: a}, nil
}

// PlayersOf reads the players of a layout from its homelands: a terrain
// disk with `terrain` "homeland", its `owner` the player, its `faction`
// the faction, its `side` (good or evil) the alignment when given.
func PlayersOf(l models.Layout) ([]Player, error) {
	var out []Player
	for _, d := range l.Disks {
		if !isHomeland(d) {
			continue
		}
		if d.Owner == "" {
			return nil, fmt.Errorf("homeland %s has no owner", d.ID)
		}
		p, err := NewPlayer(d.Owner, d.Faction, d.Side)
		if err != nil {
			return nil, fmt.Errorf("homeland %s: %w", d.ID, err)
		}
		if slices.ContainsFunc(out, func(q Player) bool { return q.Name == p.Name }) {
			return nil, fmt.Errorf("homeland %s: %s already has a homeland; give each faction its own owner", d.ID, p.Name)
		}
		p.Homeland = d.ID
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the layout has no homeland (a terrain disk with \"terrain\": \"homeland\" and an \"owner\")")
	}
	return out, nil
}

func isHomeland(d models.Disk) bool {
	return d.IsTerrain() && NormalTerrain(d.Terrain) == Homeland
}

// isUnit reports whether a disk is a unit that counts on the table:
// creatures (and disks of unknown kind that have an owner).
func isUnit(d models.Disk) bool {
	return d.Kind == models.KindCreature || (d.Kind == models.KindUnknown || d.Kind == "") && !d.IsTerrain() && d.Owner != ""
}

// roster finds players by name.
type roster map[string]Player

func newRoster(ps []Player) roster {
	r := roster{}
	for _, p := range ps {
		r[p.Name] = p
	}
	return r
}

// alignmentOf returns the alignment of a disk: its owner's, or its own
// side when that is good or evil.
func (r roster) alignmentOf(d models.Disk) (Alignment, bool) {
	if p, ok := r[d.Owner]; ok {
		return p.Alignment, true
	}
	if a, err := ParseAlignment(d.Side); err == nil {
		return a, true
	}
	return "", false
}

// factionOf returns the faction of a disk: its own, or its owner's.
func (r roster) factionOf(d models.Disk) Faction {
	if f, err := ParseFaction(d.Faction); err == nil {
		return f
	}
	return r[d.Owner].Faction
}
