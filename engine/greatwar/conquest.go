package greatwar

import (
	"slices"

	"tableref/engine"
)

// Capture is a homeland in the sole control of an enemy at the end of a
// turn, which conquers it.
type Capture struct {
	Homeland string `json:"homeland"` // the homeland's owner
	Terrain  string `json:"terrain"`  // the homeland disk's id
	By       string `json:"by"`
	// Units counts the touching units of each enemy player.
	Units map[string]int `json:"units"`
}

// Captures returns the homelands an enemy conquers at the end of the turn
// shown by the table: "A homeland is considered to be conquered if an
// enemy is in sole control of the homeland at the end of a turn". Sole
// control: units of the other alignment touch the homeland and no unit of
// its owner's alignment does. The conqueror is the enemy player with most
// units touching it; a tie goes to the one earliest in order (the turn's
// playing order), then by name. Homelands already conquered are skipped.
func Captures(t *engine.Table, conquered map[string]Conquest, order []string) ([]Capture, error) {
	players, err := PlayersOf(t.Layout())
	if err != nil {
		return nil, err
	}
	r := newRoster(players)
	var out []Capture
	for _, p := range players {
		if _, done := conquered[p.Name]; done {
			continue
		}
		if c, ok := soleControl(t, r, p, order); ok {
			out = append(out, c)
		}
	}
	return out, nil
}

func soleControl(t *engine.Table, r roster, p Player, order []string) (Capture, bool) {
	hi, _ := t.Index(p.Homeland)
	units := map[string]int{}
	for i := range t.Len() {
		d := t.Disk(i)
		if i == hi || !isUnit(d) || !t.OnTop(i, hi) {
			continue
		}
		a, ok := r.alignmentOf(d)
		if !ok {
			continue
		}
		if a == p.Alignment {
			return Capture{}, false
		}
		if _, isPlayer := r[d.Owner]; isPlayer {
			units[d.Owner]++
		}
	}
	if len(units) == 0 {
		return Capture{}, false
	}
	return Capture{Homeland: p.Name, Terrain: p.Homeland, By: leader(units, order), Units: units}, true
}

// leader returns the player with most units, ties broken by order then
// name.
func leader(units map[string]int, order []string) string {
	rank := func(p string) int {
		if i := slices.Index(order, p); i >= 0 {
			return i
		}
		return len(order)
	}
	best := ""
	for p, n := range units {
		switch {
		case best == "", n > units[best]:
			best = p
		case n == units[best] && (rank(p) < rank(best) || rank(p) == rank(best) && p < best):
			best = p
		}
	}
	return best
}
