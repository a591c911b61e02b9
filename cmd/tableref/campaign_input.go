package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"tableref/engine/greatwar"
	"tableref/models"
)

// decodeArmy reads an Esfah army, rejecting unknown fields.
func decodeArmy(data []byte, a any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(a); err != nil {
		return fmt.Errorf("army: %w", err)
	}
	return nil
}

// startingArmy lists a player's disks on the setup table as items, their
// cost the disk's "points". The Undead's free guards (keyword
// "homeland-guard", checked by CheckSetup) are left out: the setup event
// gives the Undead player his "2 free Undead Horde and 2 free Skeleton
// Archers" itself, and listing them too would give him 4 of each.
func startingArmy(l models.Layout, owner string) []greatwar.Item {
	var out []greatwar.Item
	for _, d := range l.Disks {
		if d.IsTerrain() || d.Owner != owner || greatwar.IsHomelandGuard(d) {
			continue
		}
		name := d.Name
		if name == "" {
			name = d.ID
		}
		pts, _ := d.Stat("points")
		out = append(out, greatwar.Item{Name: name, Cost: pts, Faction: strings.TrimSpace(d.Faction), Unique: d.HasKeyword("unique"), Spell: d.Kind == models.KindSpell})
	}
	return out
}
