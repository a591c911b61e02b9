package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"tableref/engine/greatwar"
	"tableref/models"
)

// decodeArmy reads an Esfah army: one JSON object, rejecting unknown
// fields and anything but white space after it (as the ledger reads an
// event), rather than reading the first of several armies alone.
func decodeArmy(data []byte, a any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(a); err != nil {
		return fmt.Errorf("army: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("army: trailing data after the JSON object (give one army)")
	}
	return nil
}

// splitNames reads a comma-separated list of names given with flag:
// each trimmed of spaces, none empty ("chris, dana" names dana, not
// " dana"). An empty list is no names.
func splitNames(flag, list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	names := strings.Split(list, ",")
	for i, n := range names {
		if names[i] = strings.TrimSpace(n); names[i] == "" {
			return nil, usageError("%s %q: name %d is empty (a comma too many?)", flag, list, i+1)
		}
	}
	return names, nil
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
