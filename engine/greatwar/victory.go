package greatwar

// The end of the campaign. The text states one objective and no other
// end: "It is the objective of the game to conquer the homlands of all
// enemy factions. Factions of the same alignment play as a team - they
// can share the task of conquering the enemy homlands between them." So
// an alignment wins when every homeland of the other alignment is
// conquered, whichever of its players conquered each. The text does not
// say that play stops then: events after the victory are still applied.

// AllConquered reports whether every homeland of the players of alignment
// a is conquered; false when no player has that alignment.
func AllConquered(players []Player, conquered map[string]Conquest, a Alignment) bool {
	n := 0
	for _, p := range players {
		if p.Alignment != a {
			continue
		}
		if _, ok := conquered[p.Name]; !ok {
			return false
		}
		n++
	}
	return n > 0
}

// checkVictory records that alignment a won in this turn when every enemy
// homeland is conquered and nobody won before: the first team to reach
// the objective stays the winner. It changes no gold nor unit, so a
// stored campaign replays with its recorded effects and learns its
// winner.
func (s *State) checkVictory(a Alignment) {
	if s.Winner == "" && AllConquered(s.Players, s.Conquered, a.Other()) {
		s.Winner, s.WonTurn = a, s.Turn
	}
}

// Winners returns the players of the winning alignment, in the setup's
// order; none while nobody has won.
func (s State) Winners() []string {
	var out []string
	for _, p := range s.Players {
		if s.Winner != "" && p.Alignment == s.Winner {
			out = append(out, p.Name)
		}
	}
	return out
}
