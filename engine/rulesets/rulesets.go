package rulesets

import (
	"fmt"
	"slices"
	"strings"

	"tableref/engine"
	"tableref/engine/diskwars"
	"tableref/engine/whdiskwars"
)

// Geometry is the name of the analysis with no ruleset: distances,
// contacts, chains, touches and hits only.
const Geometry = "geometry"

// all lists every ruleset, one line each.
var all = []engine.Ruleset{
	diskwars.Ruleset{},
	whdiskwars.Ruleset{},
}

// Lookup returns the ruleset with the given name; nil for "geometry".
func Lookup(name string) (engine.Ruleset, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == Geometry || name == "" {
		return nil, nil
	}
	for _, rs := range all {
		if rs.Name() == name {
			return rs, nil
		}
	}
	return nil, fmt.Errorf("unknown rules %q: choose one of %s", name, strings.Join(Names(), ", "))
}

// Names returns the names of every ruleset, "geometry" first.
func Names() []string {
	names := []string{Geometry}
	for _, rs := range all {
		names = append(names, rs.Name())
	}
	slices.Sort(names[1:])
	return names
}

// Summaries returns one line per ruleset: its name and what it decides.
func Summaries() []string {
	out := []string{Geometry + ": distances, contacts, chains and projectile hits only"}
	for _, rs := range all {
		out = append(out, rs.Name()+": "+rs.Summary())
	}
	return out
}
