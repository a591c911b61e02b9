package main

import (
	"fmt"
	"strings"

	"tableref/engine/greatwar"
	"tableref/models"
)

// missingHomelands refuses a table that lacks the homeland of players of
// the campaign: "each homeland automatically generates an income of 1
// Gold per turn" (and may be conquered), so the end of the turn cannot be
// worked out without it.
type missingHomelands struct {
	players []string
}

func (e *missingHomelands) Error() string {
	return fmt.Sprintf("the table shows no homeland of %s: every homeland yields its income (or is conquered) at the end of the turn, so the turn is not worked out without it; put the homeland on the table (a terrain disk with \"terrain\": \"homeland\" and \"owner\" the player) and try again",
		strings.Join(e.players, ", "))
}

// isHomelandDisk reports whether a disk is a homeland with an owner.
func isHomelandDisk(d models.Disk) bool {
	return d.IsTerrain() && greatwar.NormalTerrain(d.Terrain) == greatwar.Homeland && d.Owner != ""
}

// campaignTable checks that a table shows the homeland of every player
// of a campaign whose homeland is not conquered (missingHomelands) and of
// no one else, and returns a copy
// of it whose homelands carry the factions and alignments the campaign was
// set up with, where the income and conquest rules read them; a note tells
// of each homeland disk that says otherwise. l is not changed.
func campaignTable(l models.Layout, st greatwar.State) (models.Layout, []string, error) {
	owners := map[string]bool{}
	var strangers []string
	for _, d := range l.Disks {
		if !isHomelandDisk(d) {
			continue
		}
		owners[d.Owner] = true
		if _, ok := st.Player(d.Owner); !ok {
			strangers = append(strangers, fmt.Sprintf("%s (%s)", d.Owner, d.ID))
		}
	}
	var missing []string
	for _, p := range st.Players {
		// A conquered homeland yields nothing more to its player and may
		// have been taken off (the Uthuk's plunder of it needs it there,
		// and reads it when it is).
		if _, lost := st.Conquered[p.Name]; lost {
			continue
		}
		if !owners[p.Name] {
			missing = append(missing, p.Name)
		}
	}
	if len(missing) > 0 {
		return l, nil, &missingHomelands{players: missing}
	}
	if len(strangers) > 0 {
		return l, nil, fmt.Errorf("the table shows homelands of %s, who play no part in the campaign (its players: %s)", strings.Join(strangers, ", "), strings.Join(playerNames(st), ", "))
	}
	c := l.Clone()
	var notes []string
	for i, d := range c.Disks {
		p, ok := st.Player(d.Owner)
		if !isHomelandDisk(d) || !ok {
			continue
		}
		if q, err := greatwar.NewPlayer(d.Owner, d.Faction, d.Side); err != nil || q.Faction != p.Faction || q.Alignment != p.Alignment {
			says := fmt.Sprintf("%q", d.Faction)
			if d.Side != "" {
				says += fmt.Sprintf(", side %q", d.Side)
			}
			notes = append(notes, fmt.Sprintf("%s: the homeland %s says %s on the table; the campaign's %s (%s) is used", p.Name, d.ID, says, p.Faction, p.Alignment))
		}
		c.Disks[i].Faction, c.Disks[i].Side = string(p.Faction), string(p.Alignment)
	}
	return c, notes, nil
}

func playerNames(st greatwar.State) []string {
	names := make([]string, len(st.Players))
	for i, p := range st.Players {
		names[i] = p.Name
	}
	return names
}
