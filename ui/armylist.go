package ui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ArmyList is a player's roster: the disks of one army with their stats,
// from which the player names a detected disk. Its JSON form:
//
//	{"army": "Orc horde", "owner": "bob", "side": "evil", "faction": "orcs",
//	 "disks": [{"name": "Orc Warband", "r": 3.2,
//	            "stats": {"attack": 5, "defense": 3, "toughness": 4},
//	            "keywords": ["berserk"]}]}
type ArmyList struct {
	Army    string      `json:"army"`
	Owner   string      `json:"owner,omitempty"`
	Side    string      `json:"side,omitempty"`
	Faction string      `json:"faction,omitempty"`
	Disks   []ArmyEntry `json:"disks"`
}

// ArmyEntry is one disk of an army list.
type ArmyEntry struct {
	Name         string         `json:"name"`
	Kind         string         `json:"kind,omitempty"`
	Faction      string         `json:"faction,omitempty"`
	R            float64        `json:"r,omitempty"`
	Stats        map[string]int `json:"stats,omitempty"`
	Keywords     []string       `json:"keywords,omitempty"`
	MissileKind  string         `json:"missile_kind,omitempty"`
	MissileCount int            `json:"missile_count,omitempty"`
}

// ErrArmyList marks an army list that cannot be used.
var ErrArmyList = errors.New("bad army list")

// ParseArmyList reads the JSON form of an army list and checks it: a
// name for the army and for every entry, entry names unique, radii
// non-negative and finite.
func ParseArmyList(data []byte) (ArmyList, error) {
	var a ArmyList
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return ArmyList{}, fmt.Errorf("%w: %v", ErrArmyList, err)
	}
	if dec.More() {
		return ArmyList{}, fmt.Errorf("%w: data after the JSON object", ErrArmyList)
	}
	if strings.TrimSpace(a.Army) == "" {
		return ArmyList{}, fmt.Errorf("%w: the army has no name (field \"army\")", ErrArmyList)
	}
	seen := map[string]bool{}
	for i, e := range a.Disks {
		if strings.TrimSpace(e.Name) == "" {
			return ArmyList{}, fmt.Errorf("%w: disks[%d] has no name", ErrArmyList, i)
		}
		if seen[e.Name] {
			return ArmyList{}, fmt.Errorf("%w: %q is listed twice", ErrArmyList, e.Name)
		}
		seen[e.Name] = true
		if !finite(e.R) || e.R < 0 || e.R >= maxRadius {
			return ArmyList{}, fmt.Errorf("%w: %s: radius must be a number from 0 to less than %g cm", ErrArmyList, e.Name, float64(maxRadius))
		}
	}
	return a, nil
}

// LoadArmyList reads an army list file.
func LoadArmyList(path string) (ArmyList, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ArmyList{}, fmt.Errorf("army list: %w", err)
	}
	a, err := ParseArmyList(data)
	if err != nil {
		return ArmyList{}, fmt.Errorf("army list %s: %w", path, err)
	}
	return a, nil
}

// Entry returns the entry with the given name.
func (a ArmyList) Entry(name string) (ArmyEntry, bool) {
	for _, e := range a.Disks {
		if e.Name == name {
			return e, true
		}
	}
	return ArmyEntry{}, false
}

// FixFrom fills a disk fix from an army entry: name, stats, keywords,
// missiles, faction, the army's owner and side, and the radius when the
// entry gives one.
func (a ArmyList) FixFrom(e ArmyEntry, f *DiskFix) {
	str := func(s string) *string { return &s }
	f.Name = str(e.Name)
	f.Stats = map[string]int{}
	for k, v := range e.Stats {
		f.Stats[k] = v
	}
	f.Keywords = append([]string{}, e.Keywords...)
	if e.Kind != "" {
		f.Kind = str(e.Kind)
	}
	faction := e.Faction
	if faction == "" {
		faction = a.Faction
	}
	if faction != "" {
		f.Faction = str(faction)
	}
	if a.Owner != "" {
		f.Owner = str(a.Owner)
	}
	if a.Side != "" {
		f.Side = str(a.Side)
	}
	if e.R > 0 {
		r := e.R
		f.R = &r
	}
	if e.MissileKind != "" {
		f.MissileKind = str(e.MissileKind)
		n := e.MissileCount
		f.MissileCount = &n
	}
}
