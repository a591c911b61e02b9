package ledger

import "time"

// Line is one change to a player's counter, with the running balance.
type Line struct {
	Seq      int       `json:"seq"`
	Turn     int       `json:"turn"`
	At       time.Time `json:"at"`
	Kind     string    `json:"kind"`
	Resource string    `json:"resource"`
	Delta    int       `json:"delta"`
	Balance  int       `json:"balance"`
	Source   string    `json:"source"`
}

// PlayerLedger returns every change the live events made to a player's
// counters, in order, with the running balance of each counter ("gold"
// in The Great War, "pool" in Esfah, ...). Undone events are left out.
func (s *Store) PlayerLedger(name, player string) ([]Line, error) {
	recs, err := s.Events(name)
	if err != nil {
		return nil, err
	}
	out := []Line{}
	balance := map[string]int{}
	for _, r := range recs {
		if r.Undone != nil {
			continue
		}
		for _, e := range r.Effects {
			if e.Player != player {
				continue
			}
			balance[e.Resource] += e.Delta
			out = append(out, Line{Seq: r.Seq, Turn: r.Turn, At: r.At, Kind: r.Kind, Resource: e.Resource, Delta: e.Delta, Balance: balance[e.Resource], Source: e.Source})
		}
	}
	return out, nil
}
