package battle9

// openings are battle starts of the default unit table that the rules
// allow, each the end of a setup (TestOpeningsAreSetUpAsTheRulesAllow
// replays every one through Setup):
//
//   - the source's dwarf army (1 King, 3 Warriors, 3 Howitzers, 3
//     Trappers, 1 Runemaster: 11 units, cost 49) against 16 orcs (cost
//     36): the orcs have more units, set up first on rows 1-3 and place
//     the last unit, so the dwarfs begin;
//   - 15 humans (cost 47) against 15 elves with their 3 Kings (cost 40):
//     a tie, the coin gave the humans rows 1-3, the elves placed last, so
//     the humans begin;
//   - 16 undead costing exactly the budget, 50, against 16 orcs (cost
//     41): a tie, the undead set up first and begin.
var openings = [...]string{
	"orcs:dwarfs 4kth2/1t1hrh1t1/1w2w2w1/9/9/9/GGGG1GGGG/2OOSOO2/2T1K1T2 2",
	"humans:elves 1k2k2k1/2rasar2/1sssssss1/9/9/9/FFFF1FFFF/2AFMFA2/3RK4 1",
	"undead:orcs 4k4/1tsoots2/ggggggggg/9/9/9/ZZZSSSZZZ/1GWSKLWG1/9 1",
}

// Openings lists full boards at the start of a battle, in the text form of
// Position.String, for tests, benchmarks and examples: each is a setup of
// two lineups within the rules of the default table (cost at most 50,
// Kings free; at most 27 units; the player with more units on rows 1-3;
// the player who did not place the last unit to move). The slice is a
// copy.
func Openings() []string { return append([]string(nil), openings[:]...) }
