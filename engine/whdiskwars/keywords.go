package whdiskwars

import (
	"fmt"
	"strings"
)

// Speed is when an attack deals its damage within an engagement: Swift
// attacks first, then normal ones, then Slow ones ("Slow", "Swift").
type Speed int

// The three speeds, in the order their steps are resolved.
const (
	Swift Speed = iota
	Normal
	Slow
)

// Steps lists the speeds in the order an engagement resolves them.
var Steps = []Speed{Swift, Normal, Slow}

// String returns the step name used in the log: swift, normal or slow.
func (s Speed) String() string {
	switch s {
	case Swift:
		return "swift"
	case Slow:
		return "slow"
	}
	return "normal"
}

// Keywords of Warhammer: Diskwars that this engine knows, in their
// normalised form (see NormalizeKeyword).
const (
	KeywordSwift     = "swift"     // Swift: both attacks
	KeywordSlow      = "slow"      // Slow: both attacks
	KeywordFrenzy    = "frenzy"    // Frenzy: strike every pinned enemy when attacking
	KeywordImmune    = "immune"    // immune:X
	KeywordResistant = "resistant" // resistant:X
	// KeywordOnEngage marks a disk with a "when this disk engages an
	// enemy" ability (Archaon, Tyrion): an extension of the table model.
	KeywordOnEngage = "on-engage"
)

// Attack kinds named by the ":strength" and ":counter" variants.
const (
	AttackStrength = "strength"
	AttackCounter  = "counter"
)

// Physical is the damage type of melee ("Damage dealt in melee combat is
// Physical Damage").
const Physical = "physical"

// Profile is what a disk's keywords mean in melee.
type Profile struct {
	// StrengthSpeed and CounterSpeed are the steps in which the disk deals
	// its Strength (attacking) and Counter Strength (defending).
	StrengthSpeed, CounterSpeed Speed
	// Frenzy: when attacking, the disk strikes every enemy it pins.
	Frenzy bool
	// Immune and Resistant hold what the disk is immune or resistant to
	// (damage types such as "physical", "arcane", or effects such as
	// "ranged attack"), lower case.
	Immune, Resistant map[string]bool
	// OnEngage: the disk has a "when this disk engages" ability.
	OnEngage bool
}

// argAliases maps the long names of keyword arguments to their short form.
var argAliases = map[string]string{
	"counter strength": AttackCounter,
	"counter-strength": AttackCounter,
	"physical damage":  Physical,
	"arcane damage":    "arcane",
}

// NormalizeKeyword returns the canonical form of a keyword: lower case,
// spaces trimmed and collapsed, "Swift (Strength)" and "swift: strength"
// written "swift:strength", "Immune (Physical Damage)" written
// "immune:physical", "counter strength" written "counter".
func NormalizeKeyword(kw string) string {
	s := strings.Join(strings.Fields(strings.ToLower(kw)), " ")
	name, arg, ok := splitKeyword(s)
	if !ok {
		return s
	}
	if a, alias := argAliases[arg]; alias {
		arg = a
	}
	if arg == "" {
		return name
	}
	return name + ":" + arg
}

// splitKeyword splits "name:arg" or "name (arg)" into its name and
// argument. It reports false when s has neither form.
func splitKeyword(s string) (name, arg string, ok bool) {
	if n, a, found := strings.Cut(s, ":"); found {
		return strings.TrimSpace(n), strings.TrimSpace(a), true
	}
	if n, a, found := strings.Cut(s, "("); found && strings.HasSuffix(a, ")") {
		return strings.TrimSpace(n), strings.TrimSpace(strings.TrimSuffix(a, ")")), true
	}
	return s, "", false
}

// ParseProfile reads a disk's keywords. It returns the profile and one
// problem per keyword it does not know or cannot apply; such keywords are
// ignored (they are warnings, not errors: a disk may carry keywords that
// matter outside melee). A disk that is both Swift and Slow for the same
// attack attacks at normal speed.
func ParseProfile(keywords []string) (Profile, []string) {
	p := Profile{StrengthSpeed: Normal, CounterSpeed: Normal}
	var swift, slow [2]bool // [strength, counter]
	var problems []string
	for _, raw := range keywords {
		kw := NormalizeKeyword(raw)
		name, arg, _ := splitKeyword(kw)
		switch {
		case kw == KeywordFrenzy:
			p.Frenzy = true
		case kw == KeywordOnEngage:
			p.OnEngage = true
		case name == KeywordSwift || name == KeywordSlow:
			which, err := attacksOf(arg)
			if err != nil {
				problems = append(problems, fmt.Sprintf("keyword %q: %v (ignored)", raw, err))
				continue
			}
			set := &swift
			if name == KeywordSlow {
				set = &slow
			}
			for i, on := range which {
				set[i] = set[i] || on
			}
		case (name == KeywordImmune || name == KeywordResistant) && arg != "":
			p.add(name, arg)
		default:
			problems = append(problems, fmt.Sprintf("unknown keyword %q (ignored)", raw))
		}
	}
	p.StrengthSpeed, problems = speedOf(swift[0], slow[0], AttackStrength, problems)
	p.CounterSpeed, problems = speedOf(swift[1], slow[1], AttackCounter, problems)
	return p, problems
}

// attacksOf tells which attacks a Swift or Slow keyword applies to:
// [strength, counter].
func attacksOf(arg string) ([2]bool, error) {
	switch arg {
	case "":
		return [2]bool{true, true}, nil
	case AttackStrength:
		return [2]bool{true, false}, nil
	case AttackCounter:
		return [2]bool{false, true}, nil
	}
	return [2]bool{}, fmt.Errorf("applies to %q, want strength or counter", arg)
}

func speedOf(swift, slow bool, attack string, problems []string) (Speed, []string) {
	switch {
	case swift && slow:
		return Normal, append(problems, fmt.Sprintf("both swift and slow for %s: attacks at normal speed", attack))
	case swift:
		return Swift, problems
	case slow:
		return Slow, problems
	}
	return Normal, problems
}

func (p *Profile) add(name, what string) {
	m := &p.Immune
	if name == KeywordResistant {
		m = &p.Resistant
	}
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[what] = true
}

// Speed returns the step in which the disk deals the given attack
// (AttackStrength or AttackCounter).
func (p Profile) Speed(attack string) Speed {
	if attack == AttackCounter {
		return p.CounterSpeed
	}
	return p.StrengthSpeed
}
