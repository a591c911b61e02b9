package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"tableref/engine/esfah"
	"tableref/engine/greatwar"
	"tableref/ledger"
	"tableref/models"
	"tableref/ui"
)

// ledgerCampaign is a campaign of the ledger as the referee window's
// Campaign tab uses it (ui.Campaign): the state derived from the events,
// the end of a Great War turn proposed from the table shown, recorded
// only when the players confirm it.
type ledgerCampaign struct {
	store *ledger.Store
	name  string
	// proposed is the last proposal ProposeEndTurn returned, with the
	// state it was worked out from: Record refuses it once the campaign
	// has changed (another window or the CLI recorded or undid an event).
	proposed *uiProposal
	// shown is the number of the last live event in the history History
	// last returned (0: not known, none live, or undone since): the event
	// the Undo the tab confirms is meant for.
	shown int
}

type uiProposal struct {
	p    ui.TurnProposal
	from any
}

var _ ui.Campaign = (*ledgerCampaign)(nil)

// openUICampaign opens the campaign "tableref ui --campaign" names (see
// campaignRef); --db alone names the file, as --campaign FILE does. The
// caller closes the store.
func openUICampaign(campaign, db, name string) (*ledgerCampaign, error) {
	ref, err := parseCampaignRef(campaign, db, name)
	if err != nil {
		return nil, err
	}
	if campaign == "" && name == "" {
		ref = campaignRef{db: db, file: true}
	}
	store, n, err := openCampaignRef(ref, true, false)
	if err != nil {
		return nil, err
	}
	if _, err := store.Campaign(n); err != nil {
		store.Close()
		return nil, err
	}
	return &ledgerCampaign{store: store, name: n}, nil
}

func (c *ledgerCampaign) Close() error { return c.store.Close() }

// rulesTitle names a campaign's rules for people.
func rulesTitle(rules string) string {
	switch rules {
	case ledger.GreatWar:
		return "The Great War"
	case ledger.Esfah:
		return "The Conquest of Esfah"
	}
	return rules
}

func (c *ledgerCampaign) Status() (ui.CampaignStatus, error) {
	cp, err := c.store.Campaign(c.name)
	if err != nil {
		return ui.CampaignStatus{}, err
	}
	s, err := c.store.State(c.name)
	if err != nil {
		return ui.CampaignStatus{}, err
	}
	out := ui.CampaignStatus{Name: cp.Name, Rules: cp.Rules, Title: rulesTitle(cp.Rules)}
	switch st := s.(type) {
	case greatwar.State:
		recs, err := c.store.Events(c.name)
		if err != nil {
			return out, err
		}
		greatWarStatus(&out, st, recs)
	case esfah.State:
		esfahStatus(&out, st)
	default:
		return out, fmt.Errorf("campaign %s: rules %s have no panel", c.name, cp.Rules)
	}
	return out, nil
}

// greatWarStatus fills in the players' gold, their last recorded income by
// source and the conquests.
func greatWarStatus(out *ui.CampaignStatus, st greatwar.State, recs []ledger.Record) {
	out.Turn, out.Unit = st.Turn, "gold"
	last, turn := lastIncome(recs)
	out.IncomeTurn = turn
	for _, p := range st.Players {
		pl := ui.CampaignPlayer{Name: p.Name, Faction: string(p.Faction), Side: string(p.Alignment), Gold: st.Gold[p.Name]}
		for _, s := range last {
			if s.Player == p.Name {
				pl.Income = append(pl.Income, incomeSource(s))
			}
		}
		if q, ok := st.Conquered[p.Name]; ok {
			pl.Note = fmt.Sprintf("homeland conquered by %s in turn %d: no income", q.By, q.Turn)
		}
		out.Players = append(out.Players, pl)
	}
	if st.Winner != "" {
		out.Notes = append(out.Notes, fmt.Sprintf("The %s side won in turn %d, every enemy homeland conquered: %s.", st.Winner, st.WonTurn, strings.Join(st.Winners(), ", ")))
	}
	out.Notes = append(out.Notes, st.Warnings...)
	if len(st.Order) == 0 {
		out.Notes = append(out.Notes, "No playing order drawn for this turn yet (tableref campaign order).")
	} else {
		out.Notes = append(out.Notes, "Playing order: "+strings.Join(st.Order, ", "))
	}
	if st.IncomeTurn == st.Turn && st.Turn > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("The income of turn %d is recorded; End turn only ends it.", st.Turn))
	}
	for _, u := range slices.Sorted(maps.Keys(st.Biddings)) {
		b := st.Biddings[u]
		out.Notes = append(out.Notes, fmt.Sprintf("Bidding war for %s: %s still bidding after %d rounds.", u, strings.Join(b.Active, ", "), b.Rounds))
	}
}

// lastIncome returns the sources of the last live income event and its
// turn.
func lastIncome(recs []ledger.Record) ([]greatwar.Source, int) {
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Undone != nil || r.Kind != greatwar.KindIncome {
			continue
		}
		var e greatwar.Event
		if json.Unmarshal(r.Event, &e) == nil {
			return e.Sources, r.Turn
		}
	}
	return nil, 0
}

func esfahStatus(out *ui.CampaignStatus, st esfah.State) {
	out.Turn, out.Unit = st.Round, "health in the recruiting pool"
	for _, p := range st.Players {
		out.Players = append(out.Players, ui.CampaignPlayer{Name: p, Gold: int(st.Pool[p]),
			Note: fmt.Sprintf("holds %d terrains", st.Held(p))})
	}
	if esfah.RecruitingDue(st.Completed()) {
		out.Notes = append(out.Notes, fmt.Sprintf("%d turns completed: every army may recruit now (record a recruit event).", st.Completed()))
	} else {
		out.Notes = append(out.Notes, fmt.Sprintf("Next recruiting after turn %d.", esfah.NextRecruiting(st.Completed())))
	}
	if st.Winner != "" {
		out.Notes = append(out.Notes, st.Winner+" has won the campaign.")
	}
	// Events older versions recorded that today's rules refuse (replayed
	// as recorded): said on the tab as campaign status says them.
	for _, w := range st.Warnings {
		out.Notes = append(out.Notes, "Warning: "+w)
	}
}

func incomeSource(s greatwar.Source) ui.IncomeSource {
	return ui.IncomeSource{Player: s.Player, Source: s.Source, Terrain: s.Terrain, Gold: s.Gold}
}

// ProposeEndTurn works out the conquests and the income of the Great War
// table shown; an Esfah turn simply ends. Nothing is recorded.
func (c *ledgerCampaign) ProposeEndTurn(l models.Layout) (ui.TurnProposal, error) {
	c.proposed = nil
	s, err := c.store.State(c.name)
	if err != nil {
		return ui.TurnProposal{}, err
	}
	var p ui.TurnProposal
	switch st := s.(type) {
	case esfah.State:
		p = ui.TurnProposal{Turn: st.Round, Notes: []string{"The Conquest of Esfah: no income; the turn ends for every player."}}
	case greatwar.State:
		if p, err = greatWarProposal(l, st); err != nil {
			return p, err
		}
	default:
		return ui.TurnProposal{}, fmt.Errorf("campaign %s: no end of turn for these rules", c.name)
	}
	c.proposed = &uiProposal{p: p, from: s}
	return p, nil
}

func greatWarProposal(l models.Layout, st greatwar.State) (ui.TurnProposal, error) {
	p, err := proposeFor(l, st)
	if err != nil {
		return ui.TurnProposal{}, err
	}
	out := ui.TurnProposal{Turn: st.Turn, Notes: p.Notes}
	for _, cp := range p.Captures {
		out.Conquests = append(out.Conquests, ui.TurnConquest{Homeland: cp.Homeland, Terrain: cp.Terrain, By: cp.By, Units: cp.Units})
	}
	for _, b := range p.Blocked {
		out.Blocked = append(out.Blocked, fmt.Sprintf("%s: %d %s harvesters against %d enemy disks", b.Terrain, b.Harvesters, b.Alignment, b.Enemies))
	}
	if p.IncomeRecorded {
		return out, nil // p.Notes says so
	}
	out.Income = p.Income.Income
	for _, s := range p.Sources {
		out.Sources = append(out.Sources, incomeSource(s))
	}
	return out, nil
}

// Record records a confirmed proposal as it was proposed: the conquests,
// the income (when it has one) and the end of the turn, all in one
// transaction. The campaign must still be in the proposal's turn and, for
// the proposal ProposeEndTurn last returned, still be as it was then; this
// is checked under the database's write lock with the events
// (recordGreatWar), so that another window or the CLI ending the same
// turn meanwhile makes Record refuse it ("propose again") with nothing
// recorded, where the turn would otherwise end twice.
func (c *ledgerCampaign) Record(p ui.TurnProposal) ([]ui.CampaignEvent, error) {
	cp, err := c.store.Campaign(c.name)
	if err != nil {
		return nil, err
	}
	b := proposalBasis{turn: p.Turn}
	if c.proposed != nil && reflect.DeepEqual(c.proposed.p, p) {
		b.state = c.proposed.from
	}
	var recs []ledger.Record
	switch cp.Rules {
	case ledger.Esfah:
		recs, err = c.store.AppendAll(c.name, []json.RawMessage{json.RawMessage(`{"kind":"end-turn"}`)}, b.check)
		if err != nil {
			err = fmt.Errorf("campaign %s: %w", c.name, err)
		}
	case ledger.GreatWar:
		recs, err = recordGreatWar(c.store, c.name, b, proposalEvents(p))
	default:
		return nil, fmt.Errorf("campaign %s: no end of turn for these rules", c.name)
	}
	if err != nil {
		return nil, err
	}
	c.proposed = nil
	return uiEvents(recs), nil
}

// proposalEvents are the Great War events of a confirmed proposal.
func proposalEvents(p ui.TurnProposal) []greatwar.Event {
	var events []greatwar.Event
	for _, cp := range p.Conquests {
		events = append(events, greatwar.Event{Kind: greatwar.KindConquest, Homeland: cp.Homeland, By: cp.By})
	}
	if p.Income != nil {
		srcs := make([]greatwar.Source, len(p.Sources))
		for i, s := range p.Sources {
			srcs[i] = greatwar.Source{Player: s.Player, Source: s.Source, Gold: s.Gold, Terrain: s.Terrain}
		}
		events = append(events, greatwar.Event{Kind: greatwar.KindIncome, Sources: srcs})
	}
	return append(events, greatwar.Event{Kind: greatwar.KindEndTurn})
}

// Undo undoes the last live event of the history History last returned
// (the tab reads it to show the event and again just before undoing it),
// and only that event: UndoIf checks it is still the last live one under
// the database's write lock, so that an event another window or the CLI
// records in between is refused ("the campaign changed: the last event is
// #N, not #M; nothing undone") rather than undone in its place. When the
// history read since the last undo showed no live event (or none was
// read), it undoes the last live event.
func (c *ledgerCampaign) Undo() (ui.CampaignEvent, error) {
	var rec ledger.Record
	var err error
	if c.shown > 0 {
		rec, err = c.store.UndoIf(c.name, c.shown)
	} else {
		rec, err = c.store.Undo(c.name)
	}
	if err != nil {
		return ui.CampaignEvent{}, err
	}
	c.shown = 0
	return uiEvent(rec), nil
}

func (c *ledgerCampaign) History() ([]ui.CampaignEvent, error) {
	recs, err := c.store.Events(c.name)
	if err != nil {
		return nil, err
	}
	c.shown = 0
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Undone == nil {
			c.shown = recs[i].Seq
			break
		}
	}
	return uiEvents(recs), nil
}

func uiEvents(recs []ledger.Record) []ui.CampaignEvent {
	out := make([]ui.CampaignEvent, len(recs))
	for i, r := range recs {
		out[i] = uiEvent(r)
	}
	return out
}

// itemsShown is how many changes of one player an event's summary lists.
const itemsShown = 4

// uiEvent is a record for the history: its summary adds up the effects
// per player and counter ("eli +3 gold; oscar +1 Grugs"); the sources are
// in the players' ledgers.
func uiEvent(r ledger.Record) ui.CampaignEvent {
	var parts []string
	if r.Kind == greatwar.KindConquest {
		var e greatwar.Event
		if json.Unmarshal(r.Event, &e) == nil && e.By != "" {
			parts = append(parts, fmt.Sprintf("%s conquers the homeland of %s", e.By, e.Homeland))
		}
	}
	var players []string
	sums := map[string]map[string]int{}
	var order = map[string][]string{}
	for _, e := range r.Effects {
		if sums[e.Player] == nil {
			players = append(players, e.Player)
			sums[e.Player] = map[string]int{}
		}
		if _, seen := sums[e.Player][e.Resource]; !seen {
			order[e.Player] = append(order[e.Player], e.Resource)
		}
		sums[e.Player][e.Resource] += e.Delta
	}
	for _, p := range players {
		var items []string
		for _, res := range order[p] {
			d := sums[p][res]
			if d == 0 {
				continue
			}
			if len(items) == itemsShown {
				items = append(items, "…")
				break
			}
			if name, ok := strings.CutPrefix(res, "unit:"); ok {
				items = append(items, fmt.Sprintf("%+d %s", d, name))
			} else {
				items = append(items, fmt.Sprintf("%+d %s", d, res))
			}
		}
		if len(items) > 0 {
			parts = append(parts, p+" "+strings.Join(items, ", "))
		}
	}
	return ui.CampaignEvent{Seq: r.Seq, Turn: r.Turn, At: r.At, Kind: r.Kind, Player: r.Player,
		Summary: strings.Join(parts, "; "), Undone: r.Undone != nil}
}
