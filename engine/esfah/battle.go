package esfah

import (
	"fmt"
	"strings"
)

// Health is a number of health points of Dragon Dice units.
type Health int

// BattleSize is one column of the text's "Decide Battle Size" table.
type BattleSize struct {
	// TotalHealth is the total starting health per player.
	TotalHealth Health `json:"total_health"`
	// InPlay is the health put in play at the start; InPool the health
	// set aside in the recruiting pool.
	InPlay Health `json:"in_play"`
	InPool Health `json:"in_pool"`
	// Dragons is the number of dragons, DragonkinHealth the dragonkin
	// health point total, per player.
	Dragons         int    `json:"dragons"`
	DragonkinHealth Health `json:"dragonkin_health"`
	Medallions      int    `json:"medallions"`
	// TerrainTotal is the number of major terrain dice in the game;
	// VictoryGoal the number a player must capture to win.
	TerrainTotal int `json:"terrain_total"`
	VictoryGoal  int `json:"victory_goal"`
}

// sizeStep is the increment of the battle size: "The number of units used
// grows in increments of 60 health, starting with 120 health per player."
const (
	sizeStep = 60
	minSize  = 120
)

// medallions is the only row of the table that follows no arithmetic rule.
var medallions = map[Health]int{120: 1, 180: 1, 240: 2, 300: 3, 360: 3}

// MaxTerrainDice is the number of different major terrain dice the text
// knows of ("Currently 16 different major terrain dice are available"),
// which bounds the battle size at 360 health.
const MaxTerrainDice = 16

// Sizes returns the columns of the battle size table, smallest first.
func Sizes() []BattleSize {
	var out []BattleSize
	for h := Health(minSize); ; h += sizeStep {
		s, err := SizeFor(h)
		if err != nil {
			return out
		}
		out = append(out, s)
	}
}

// SizeFor returns the battle size for a total starting health per player.
// The rows follow from the text's rules: half in play and half in the
// pool, one dragon per 60 health plus one, dragonkin a sixth of the total,
// one terrain per 30 health plus four (two per player step), and a goal of
// "more than half of the available terrain". Medallions come from the
// table. Sizes beyond 360 would need more than the 16 terrain dice known.
func SizeFor(total Health) (BattleSize, error) {
	if total < minSize || total%sizeStep != 0 {
		return BattleSize{}, fmt.Errorf("battle size %d health: sizes start at %d and grow in steps of %d (120, 180, 240, 300, 360)", total, minSize, sizeStep)
	}
	m, ok := medallions[total]
	if !ok {
		return BattleSize{}, fmt.Errorf("battle size %d health: the largest size is 360, which already uses all %d major terrain dice", total, MaxTerrainDice)
	}
	terrain := int(total)/30 + 4
	return BattleSize{
		TotalHealth:     total,
		InPlay:          total / 2,
		InPool:          total / 2,
		Dragons:         int(total)/sizeStep + 1,
		DragonkinHealth: total / 6,
		Medallions:      m,
		TerrainTotal:    terrain,
		VictoryGoal:     VictoryGoal(terrain),
	}, nil
}

// VictoryGoal is the number of terrain a player must hold to win: "more
// than half of the available terrain in the game".
func VictoryGoal(terrainTotal int) int { return terrainTotal/2 + 1 }

// Won reports whether holding captured of terrainTotal terrain wins.
func Won(captured, terrainTotal int) bool { return captured >= VictoryGoal(terrainTotal) }

// MustReroll reports whether a terrain die showing face must be rerolled
// when armies are placed: "Any terrain dice with a 7 or 8 initially are
// rerolled."
func MustReroll(face int) bool { return face == 7 || face == 8 }

// CheckArmies checks a player's initial armies (the health of each):
// "3 armies per player, no more than one-half the initial health total may
// be in a single army and each army must contain at least 1 unit". The
// initial health total is the health in play of the battle size; units
// counts the units of each army.
func CheckArmies(size BattleSize, health []Health, units []int) error {
	if len(health) != 3 || len(units) != 3 {
		return fmt.Errorf("initial armies: a player has 3 armies (home, frontier, horde), got the health of %d and the units of %d", len(health), len(units))
	}
	var sum Health
	var problems []string
	for i, h := range health {
		sum += h
		if h < 0 {
			// A negative army would make room under the total for the
			// others.
			problems = append(problems, fmt.Sprintf("army %d has negative health %d", i+1, h))
		}
		if units[i] < 1 {
			problems = append(problems, fmt.Sprintf("army %d has no unit", i+1))
		}
		if 2*h > size.InPlay {
			problems = append(problems, fmt.Sprintf("army %d has %d health, more than half of the %d in play", i+1, h, size.InPlay))
		}
	}
	if sum > size.InPlay {
		problems = append(problems, fmt.Sprintf("the armies hold %d health, more than the %d initially in play", sum, size.InPlay))
	}
	if len(problems) > 0 {
		return fmt.Errorf("initial armies: %s", strings.Join(problems, "; "))
	}
	return nil
}
