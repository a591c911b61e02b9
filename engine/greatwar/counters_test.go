package greatwar

import (
	"math"
	"testing"
)

// TestNothingComesFree: events that would give gold, a unit or a mark for
// nothing, or wrap a counter round to a negative value, are refused.
func TestNothingComesFree(t *testing.T) {
	s := newCampaign(t) // kate, eli, oscar 10 gold, ned 3
	rich := s.clone()
	rich.Gold["eli"], rich.Gold["oscar"] = math.MaxInt, math.MaxInt
	sword := Item{Name: "Swordsmen", Cost: 6, Faction: "knights"}
	ceryx := Item{Name: "Ceryx Jade", Cost: 6, Unique: true}
	bidding, _ := apply(t, s, Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{ceryx}}, {Player: "eli", Items: []Item{ceryx}}}})
	wounded, _ := apply(t, s, Event{Kind: KindWound, Player: "kate", Unit: "Standard Bearer", Amount: math.MaxInt})
	cases := []struct {
		name string
		from State
		e    Event
		want string
	}{
		{"one player's two orders, each within his gold but not together", s,
			Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{sword}}, {Player: "kate", Items: []Item{sword}}}}, "two orders"},
		{"an order whose total cost overflows", s,
			Event{Kind: KindPurchase, Orders: []Order{{Player: "kate", Items: []Item{{Name: "Swordsmen", Cost: math.MaxInt, Faction: "knights"}, {Name: "Men-At-Arms", Cost: 1, Faction: "knights"}}}}}, "beyond"},
		{"an income past the largest counter", rich,
			Event{Kind: KindIncome, Sources: []Source{{Player: "oscar", Source: "homeland", Gold: 2}}}, "beyond"},
		{"the same income source listed twice", s,
			Event{Kind: KindIncome, Sources: []Source{{Player: "oscar", Source: "homeland", Gold: 2}, {Player: "oscar", Source: "homeland", Gold: 2}}}, "listed twice"},
		{"a transfer past the largest counter", rich,
			Event{Kind: KindTransfer, Player: "kate", To: "eli", Gold: 1}, "beyond"},
		{"a conquest past the largest counter", rich,
			Event{Kind: KindConquest, Homeland: "kate", By: "oscar"}, "beyond"},
		{"a wound past the largest counter", wounded,
			Event{Kind: KindWound, Player: "kate", Unit: "Standard Bearer", Amount: 1}, "beyond"},
		{"damage on nobody's unit", s,
			Event{Kind: KindDamage, Unit: "Standard Bearer", Amount: 1}, "give the player"},
		{"a wound on a unit not in play", s,
			Event{Kind: KindWound, Player: "kate", Unit: "Ghost", Amount: 1}, `no "Ghost" in play`},
		{"a bidder named twice", bidding,
			Event{Kind: KindBid, Unit: "Ceryx Jade", Bidders: []string{"kate", "kate"}}, "named twice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { mustFail(t, c.from, c.e, c.want) })
	}
}
