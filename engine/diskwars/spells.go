package diskwars

import (
	"slices"

	"tableref/models"
)

// Area says how a spell chooses what it affects on the table.
type Area string

// Spell areas.
const (
	// AreaNone: the spell acts off the table (reinforcement pile, a
	// player) or as the text says, with no range to check.
	AreaNone Area = "none"
	// AreaSelf: the caster itself.
	AreaSelf Area = "self"
	// AreaTarget: one disk (or Targets disks) within Range of the caster.
	AreaTarget Area = "target"
	// AreaAround: every disk the text names within Range of the caster.
	AreaAround Area = "around"
	// AreaChoose: up to Targets disks chosen within Range of the caster.
	AreaChoose Area = "choose"
	// AreaChain: a target within Range and its whole contact chain.
	AreaChain Area = "chain"
	// AreaContact: the caster and the disks in contact with it.
	AreaContact Area = "contact"
	// AreaPlace: a place on the table within Range of the caster.
	AreaPlace Area = "place"
	// AreaLine: the spell disk is pushed in a straight line from the caster.
	AreaLine Area = "line"
)

// Spell is one of the 31 spells of the "Livre de sorts".
type Spell struct {
	Name    string `json:"name"`    // French name, as printed
	English string `json:"english"` // our English rendering
	Level   int    `json:"level"`
	Cost    int    `json:"cost"` // army points (PA)
	// Range in cm, edge to edge from the caster; 0 when the text gives none.
	Range models.Centimetres `json:"range_cm"`
	Area  Area               `json:"area"`
	// Targets is how many disks the caster chooses (0 when not chosen).
	Targets int `json:"targets,omitempty"`
	// Power is the power of the attack the spell makes, 0 for none.
	Power  int    `json:"power,omitempty"`
	Effect string `json:"effect"`
}

var spells = []Spell{
	// Level 1.
	{"Mur magique", "Magic Wall", 1, 2, 15, AreaPlace, 0, 0, "an impassable wall on an empty place in range; flyers pass over but cannot stop on it; at most three walls within 30 cm; stays all game"},
	{"Soins", "Healing", 1, 2, 30, AreaTarget, 1, 0, "removes one wound marker from a disk with several wounds"},
	{"Vitesse", "Speed", 1, 2, 30, AreaTarget, 1, 0, "+3 movement during this activation phase"},
	{"Bouclier", "Shield", 1, 3, 30, AreaTarget, 1, 0, "+3 toughness until the end of the turn"},
	{"Conscription", "Conscription", 1, 3, 0, AreaNone, 0, 0, "the top two disks of the reinforcement pile enter play in contact with the deployment zone and may be activated this turn"},
	{"Immobilisation", "Immobilisation", 1, 3, 30, AreaTarget, 1, 0, "the target cannot move during this activation phase (it may act otherwise)"},
	{"Rune de protection", "Rune of Protection", 1, 3, 30, AreaTarget, 1, 0, "total immunity to projectiles until the end of the turn"},
	{"Décrépitude", "Decay", 1, 4, 15, AreaAround, 0, 0, "every enemy disk within 15 cm of the caster has -1 toughness until the end of the turn, never below 1"},
	{"Tireur d'élite", "Marksman", 1, 4, 15, AreaTarget, 1, 0, "the target is hit by every projectile attack until the end of the turn; shooters in range may lay their projectiles on it"},
	{"Zap", "Zap", 1, 4, 30, AreaAround, 0, 0, "+2 movement to the caster and every disk within 30 cm of it"},
	// Level 2.
	{"Boule de feu", "Fireball", 2, 5, 0, AreaLine, 0, 6, "push the spell disk in a straight line from the caster; the first enemy disk it touches suffers an attack of power 6"},
	{"Congélation", "Freeze", 2, 5, 0, AreaNone, 0, 0, "the chosen opponent cannot activate his 3 disks at the next turn of the table (his phase does not end); never twice in a row"},
	{"Conjuration", "Conjuration", 2, 5, 0, AreaNone, 0, 0, "any disk of the reinforcement pile enters play in contact with the caster and may be activated this turn"},
	{"Destin", "Fate", 2, 5, 30, AreaTarget, 2, 0, "two disks in combat or blocked swap places, the upper going under"},
	{"Prise de tête", "Headache", 2, 5, 0, AreaTarget, 1, 0, "a non-activated enemy disk cannot use its special skills until the end of the turn"},
	{"Protection divine", "Divine Protection", 2, 5, 0, AreaSelf, 0, 0, "+6 toughness to the caster until the end of the turn"},
	{"Répulsion", "Repulsion", 2, 5, 30, AreaTarget, 1, 0, "a non-activated, non-blocked disk: nobody may fly over or land on it until the end of the turn; it gets an activation marker"},
	{"Vigueur", "Vigour", 2, 6, 30, AreaTarget, 1, 0, "remove the activation marker of a friendly disk: it may be activated again"},
	{"Onde de choc", "Shock Wave", 2, 7, 15, AreaAround, 0, 0, "every enemy disk within 15 cm that is not blocked is flipped once away from the caster, in increasing order of toughness"},
	{"Protection", "Protection", 2, 7, 0, AreaContact, 0, 0, "the caster and every disk in contact with it take no damage until the end of the turn"},
	{"Contrôle", "Control", 2, 8, 0, AreaTarget, 1, 0, "move a non-activated enemy disk in its owner's place; it gets an activation marker; it cannot leave the table"},
	// Level 3.
	{"Déplacement", "Displacement", 3, 7, 15, AreaTarget, 2, 0, "two disks not in combat swap places; one of them within 15 cm of the caster"},
	{"Téléportation", "Teleportation", 3, 7, 0, AreaTarget, 1, 0, "a non-blocked disk moves at most 30 cm from where it stands"},
	{"Conversion", "Conversion", 3, 8, 0, AreaNone, 0, 0, "the bottom creature of an opponent's reinforcement pile with AT+D+E at most 11 joins your pile on top; otherwise it enters play for its owner"},
	{"Pénurie", "Shortage", 3, 8, 0, AreaNone, 0, 0, "the second disk from the top of an opponent's reinforcement pile is destroyed"},
	{"Orage de feu", "Fire Storm", 3, 10, 0, AreaNone, 0, 7, "thrown from 30 cm away from the table; every disk it touches suffers an attack of power 7; passed to the left until it touches nothing"},
	{"Choc électrique", "Electric Shock", 3, 10, 15, AreaChain, 1, 5, "a disk within 15 cm and every disk linked to it by contact suffer an attack of power 5"},
	{"Contre-sort", "Counterspell", 3, 10, 0, AreaNone, 0, 0, "cast out of turn by a non-activated level 3 caster to counter a spell; both spells leave the game"},
	{"Paralysie", "Paralysis", 3, 10, 15, AreaChoose, 5, 0, "5 disks within 15 cm of the caster get an activation marker"},
	{"Pluie d'acier", "Rain of Steel", 3, 10, 30, AreaPlace, 0, 0, "drop 10 arrows at once, from at least 60 cm high, anywhere within 30 cm of the caster"},
	{"Résurrection", "Resurrection", 3, 10, 0, AreaNone, 0, 0, "a destroyed disk returns beside the caster with an activation marker; the caster then takes a wound"},
}

// Spells returns the 31 spells of the rulebook, level 1 first, in the
// book's order.
func Spells() []Spell { return slices.Clone(spells) }

// LookupSpell finds a spell by its French or English name, without regard
// to case, accents, hyphens or underscores ("boule-de-feu", "Fireball").
func LookupSpell(name string) (Spell, bool) {
	n := normalise(name)
	for _, s := range spells {
		if normalise(s.Name) == n || normalise(s.English) == n {
			return s, true
		}
	}
	return Spell{}, false
}

// CanCast reports whether a caster of the given level may cast the spell:
// its level is at least the spell's ("Magicien").
func CanCast(casterLevel int, s Spell) bool { return casterLevel >= s.Level }
