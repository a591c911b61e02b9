package greatwar

import (
	"tableref/models"
)

// armies checks the starting armies on the table: 150 points, within
// 10 cm of the homeland, no mixed armies, uniques once (the Familiar
// excepted, one per player), the banned spell, the Knights' catapults.
func (s *setupCheck) armies() {
	points := map[string]int{}
	uniques := map[string]string{}
	familiars, catapults := map[string]int{}, map[string]int{}
	guards := map[string]map[string]int{}
	for i, d := range s.t.Disks() {
		if d.IsTerrain() || d.Owner == "" {
			continue
		}
		p, ok := s.roster[d.Owner]
		if !ok {
			s.fail("army owner", []string{d.ID}, "disk %s belongs to %s, who has no homeland", d.ID, d.Owner)
			continue
		}
		pts, _ := d.Stat("points")
		if !s.freeGuard(guards, p, d) {
			points[p.Name] += pts
		}
		s.armyDisk(i, p, d)
		// A table is checked afresh, so "Catapults" and "Familiars" are
		// the limited units whatever the rules version of a campaign.
		n := NormalName(d.Name)
		switch u := UnitKey(d.Name, true); {
		case u == Familiar:
			familiars[p.Name]++
		case u == Catapult:
			catapults[p.Name]++
		case d.HasKeyword("unique"):
			if other, dup := uniques[n]; dup {
				s.fail("unique once", []string{d.ID}, "the unique disk %s is chosen twice (%s and %s)", d.Name, other, p.Name)
			}
			uniques[n] = p.Name
		}
	}
	for _, p := range s.players {
		if points[p.Name] > StartingPoints {
			s.fail("army points", nil, "%s's starting army is worth %d points, more than %d", p.Name, points[p.Name], StartingPoints)
		}
		if familiars[p.Name] > 1 {
			s.fail("familiar", nil, "%s has %d Familiars; each player is allowed 1", p.Name, familiars[p.Name])
		}
		if p.Faction == Knights && catapults[p.Name] > MaxCatapults {
			s.fail("catapults", nil, "the Knights have %d Catapults; at most %d", catapults[p.Name], MaxCatapults)
		}
	}
}

func (s *setupCheck) armyDisk(i int, p Player, d models.Disk) {
	hi, _ := s.t.Index(p.Homeland)
	if e := s.t.Edge(i, hi); e > ArmyRadius {
		s.fail("army placement", []string{d.ID}, "%s (%s) is %.2f cm from its homeland %s, at most %.0f cm", d.ID, d.Name, e, p.Homeland, ArmyRadius)
	}
	it := Item{Name: d.Name, Faction: d.Faction, Spell: d.Kind == models.KindSpell}
	if it.Name == "" {
		it.Name = d.ID
	}
	if err := CheckArmyRule(p, it); err != nil {
		s.fail("army rules", []string{d.ID}, "%s: %v", d.ID, err)
	}
}

// undeadGuards are the Undead player's free units: "the Undead player
// gains 2 free Undead Horde and 2 free Skeleton Archers".
var undeadGuards = map[string]int{"undead horde": 2, "skeleton archers": 2}

// IsHomelandGuard reports whether d is marked as one of the Undead's free
// homeland guards (keyword "homeland-guard").
func IsHomelandGuard(d models.Disk) bool { return d.HasKeyword("homeland-guard") }

// freeGuard reports whether d is one of the Undead's free guards, which
// cost none of the 150 points. A disk marked homeland-guard that is not
// (another player's, another unit, a third Undead Horde) is a problem:
// its points would otherwise be left out of the army.
func (s *setupCheck) freeGuard(seen map[string]map[string]int, p Player, d models.Disk) bool {
	if !IsHomelandGuard(d) {
		return false
	}
	n := NormalName(d.Name)
	if p.Faction != Undead || seen[p.Name][n] >= undeadGuards[n] {
		s.fail("homeland guard", []string{d.ID}, "%s (%s) is marked homeland-guard, but only the Undead player's 2 Undead Horde and 2 Skeleton Archers are free guards", d.ID, d.Name)
		return false
	}
	if seen[p.Name] == nil {
		seen[p.Name] = map[string]int{}
	}
	seen[p.Name][n]++
	return true
}
