package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"tableref/engine"
	"tableref/engine/esfah"
	"tableref/engine/greatwar"
	"tableref/ledger"
	"tableref/models"
)

func init() {
	subcommands["new"] = &subcommand{store: true, run: runCampaignNew, flags: func(c *campaignCtx, fs *flag.FlagSet) {
		c.defString(fs, "setup", "")
		c.defString(fs, "players", "")
		c.defString(fs, "health", "")
		c.defBool(fs, "bones")
	}, usage: `Usage: tableref campaign new --campaign NAME --rules greatwar|esfah [options] [LAYOUT.json]

Starts a campaign and records its setup event.

The Great War: give the table layout with the homelands (terrain disks with
"terrain": "homeland", "owner" the player, "faction" the faction, "side"
good or evil when not the faction's usual one). The layout is checked
against the set-up rules first (see "campaign check"); the players are the
homelands' owners. --bones plays the optional Battle for the Bones. Or give
the whole setup event with --setup FILE.json (--bones then turns the
option on in it). A new campaign is played under the current rules
version ("rules_version" in its setup event) unless the --setup file
names one.

The Conquest of Esfah: --players a,b,c and --health 120|180|240|300|360 (the
total starting health per player), or --setup FILE.json.

Examples:
  tableref campaign new --campaign war --rules greatwar --bones homelands.json
  tableref campaign new --campaign esfah --rules esfah --players chris,dana --health 180
`}
	subcommands["check"] = &subcommand{run: runCampaignCheck, usage: `Usage: tableref campaign check [--rules greatwar] LAYOUT.json

Checks a table against The Great War's set-up rules and prints the
problems ({"problems": []} when the table is legal): as many good as evil
factions, the terrains each player places (2, or 1 with more than 6
factions; each kind once; no Forest or Good Temple for evil, no Scorched
Valley or Evil Temple for good), 10 cm between terrains and 20 cm from
homelands, the single mountain in the middle, 150-point armies within 10 cm
of their homeland, no mixed armies, unique disks once. Exits 1 when there
is a problem.

Example:
  tableref campaign check setup.json
`}
	subcommands["income"] = &subcommand{store: true, run: runCampaignIncome, usage: `Usage: tableref campaign income --rules greatwar [--campaign NAME] [--db PATH] LAYOUT.json
       tableref campaign income --rules greatwar LAYOUT.json --campaign DB [--name NAME]

Works out the income of every player at the end of the turn from the table:
1 gold per homeland (Orcs 2, Uthuk none), 1 gold per harvested Forest, Lake
or Mountain (Elves 2 in a wood, Dwarves 2 on a mountain), 3 gold for the
Uthuk plundering a homeland they conquered; a terrain yields nothing when as
many or more enemy disks touch it as there are harvesters. Harvesters are
recognised by name (Peasants, Men-At-Arms, Swordsmen, Regiment of the Anvil,
Deepwood Warriors, Dragon Warriors, Undead Horde, Grugs, Warriors of Yllan),
the keyword "harvester", or the layout's "harvesters" list. With
--campaign, the conquered homelands come from the campaign: a campaign
NAME of the database (--db, or the default one), or the database file DB
itself (a path, or a name ending in .db, .sqlite or .sqlite3) and the only
campaign it holds (or --name NAME). Nothing is recorded: see end-turn.

Prints {"income": {"<owner>": gold}, "sources": [{"player", "source",
"gold", "terrain"}], "blocked": [...], "captures": [...]}.

Examples:
  tableref campaign income --rules greatwar table.json
  tableref campaign income --rules greatwar table.json --campaign war.db
`}
	subcommands["end-turn"] = &subcommand{store: true, run: runCampaignEndTurn, flags: func(c *campaignCtx, fs *flag.FlagSet) { c.defBool(fs, "yes") },
		usage: `Usage: tableref campaign end-turn --campaign NAME [--yes] [--db PATH] [LAYOUT.json]

The Great War: proposes the end of the turn from the live table: the
homelands conquered (an enemy in sole control) and the income. Without
--yes it only prints the proposal, for the players to confirm; with --yes
it records the conquests, the income and the end of the turn. The table
must show the homeland of every player of the campaign (and of no one
else); the factions and sides are the campaign's. When the turn's income
is already recorded (its end-turn was undone), only the conquests and the
end of the turn are recorded.
Without a layout (or for Esfah) it only ends the turn.

Examples:
  tableref campaign end-turn --campaign war table.json
  tableref campaign end-turn --campaign war --yes table.json
`}
	subcommands["order"] = &subcommand{store: true, run: runCampaignOrder, flags: func(c *campaignCtx, fs *flag.FlagSet) { c.defString(fs, "seed", "") },
		usage: "Usage: tableref campaign order --campaign NAME [--seed N] [--db PATH]\n\nThe Great War: draws the playing order of the turn at random (counters\nfrom a cup) and records it. --seed makes the draw repeatable.\n"}
	subcommands["buy"] = &subcommand{store: true, run: runCampaignBuy, flags: func(c *campaignCtx, fs *flag.FlagSet) {
		for _, f := range []string{"player", "unit", "cost", "faction"} {
			c.defString(fs, f, "")
		}
		c.defBool(fs, "unique")
		c.defBool(fs, "spell")
	}, usage: `Usage: tableref campaign buy --campaign NAME --player P --unit NAME --cost GOLD [--faction F] [--unique] [--spell]

The Great War: one player buys one disk or spell at the start of the turn.
The rules check the gold held, the army rules (one faction plus factionless
disks), unique disks (never twice, never after their death), one spell per
turn, the banned spell. For secret buys of several players revealed
together (and the bidding war on a contested unique), record a "purchase"
event with all the orders (see "campaign record").

Example:
  tableref campaign buy --campaign war --player kate --unit Swordsmen --cost 4 --faction knights
`}
	subcommands["bid"] = &subcommand{store: true, run: runCampaignBid, flags: func(c *campaignCtx, fs *flag.FlagSet) {
		c.defString(fs, "unit", "")
		c.defString(fs, "bidders", "")
	}, usage: `Usage: tableref campaign bid --campaign NAME --unit NAME --bidders P1,P2,...

The Great War: one round of a bidding war. Every bidder raises by 1 gold,
lost at once; a player who does not bid is out. When one player alone bids,
he takes the unit; when nobody bids (a draw), nobody gains it.

Example:
  tableref campaign bid --campaign war --unit "Ceryx Jade" --bidders kate,eli
`}
	subcommands["transfer"] = &subcommand{store: true, run: runCampaignTransfer, flags: func(c *campaignCtx, fs *flag.FlagSet) {
		for _, f := range []string{"from", "to", "gold"} {
			c.defString(fs, f, "")
		}
	}, usage: "Usage: tableref campaign transfer --campaign NAME --from P --to Q --gold N\n\nThe Great War: gold given between players of the same alignment.\n\nExample:\n  tableref campaign transfer --campaign war --from kate --to eli --gold 3\n"}
	subcommands["recruit"] = &subcommand{run: runCampaignRecruit, usage: `Usage: tableref campaign recruit --rules esfah ARMY.json|-

The Conquest of Esfah: the recruiting points of one army at one terrain.
ARMY.json is {"terrain": "highland", "units": [{"race": "vagha", "health":
12}, ...], "items_health": 4, "dragons": 1, "dragonkin_health": 0} (with
optional "bonus": {"race": health} and "natives": {"race": "terrain"} for
races the text's table does not list). Prints {"recruit": {"<race>":
health}, "points": N, "pooled_half_rate": M}: the health each race may
recruit of its own race there (one per four health, rounded up, doubled in
native terrain), the points in all, and the most health of other races or
magic items all those points buy together at half rate. The half rate is
taken over all the points converted, never race by race: 3 Vagha and 5
Mohrel points buy 4 Feral, not 2 + 3; each point converted is one fewer
of its own race.

Example:
  echo '{"terrain":"highland","units":[{"race":"vagha","health":12},{"race":"mohrel","health":17}]}' | tableref campaign recruit --rules esfah -
`}
}

func runCampaignNew(c *campaignCtx, pos []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	setup, err := c.setupEvent(pos)
	if err != nil {
		return err
	}
	if _, _, err := c.store.Start(name, c.rules, setup); err != nil {
		return fmt.Errorf("campaign %s: %w", name, err)
	}
	st, err := c.store.State(name)
	if err != nil {
		return err
	}
	return writeJSON(c.env.stdout, map[string]any{"created": name, "rules": c.rules, "db": c.store.Path(), "state": st})
}

// setupEvent builds the setup event from --setup, a layout, or the Esfah
// flags; it is checked by the rules before the campaign is created. A
// Great War campaign is played under the current rules unless a --setup
// file names a version (see greatWarSetupFile).
func (c *campaignCtx) setupEvent(pos []string) (json.RawMessage, error) {
	if c.on("bones") && c.rules == ledger.Esfah {
		return nil, usageError("--bones plays the Battle for the Bones of greatwar; Esfah has no such option")
	}
	var ev any
	switch {
	case c.str("setup") != "":
		data, err := readCampaignInput(c, c.str("setup"))
		if err != nil {
			return nil, err
		}
		if c.rules == ledger.GreatWar {
			if data, err = greatWarSetupFile(data, c.on("bones")); err != nil {
				return nil, err
			}
		}
		ev = json.RawMessage(data)
	case c.rules == ledger.GreatWar:
		e, err := c.greatWarSetup(pos)
		if err != nil {
			return nil, err
		}
		ev = e
	case c.rules == ledger.Esfah:
		h, err := strconv.Atoi(c.str("health"))
		if err != nil || c.str("players") == "" {
			return nil, usageError("give --players a,b,... and --health N (120, 180, 240, 300 or 360)")
		}
		players, err := splitNames("--players", c.str("players"))
		if err != nil {
			return nil, err
		}
		ev = esfah.Event{Kind: esfah.KindSetup, Players: players, TotalHealth: esfah.Health(h)}
	default:
		return nil, usageError("give --rules %s", strings.Join(ledger.RuleSets, " or "))
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	return data, c.trySetup(data)
}

// trySetup applies the setup to an empty campaign in memory, so that a
// refused setup creates nothing.
func (c *campaignCtx) trySetup(data []byte) error {
	var err error
	switch c.rules {
	case ledger.GreatWar:
		var e greatwar.Event
		if err = json.Unmarshal(data, &e); err == nil {
			_, _, err = greatwar.State{}.Apply(e)
		}
	case ledger.Esfah:
		var e esfah.Event
		if err = json.Unmarshal(data, &e); err == nil {
			_, _, err = esfah.State{}.Apply(e)
		}
	default:
		return usageError("give --rules %s", strings.Join(ledger.RuleSets, " or "))
	}
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	return nil
}

func (c *campaignCtx) greatWarSetup(pos []string) (greatwar.Event, error) {
	path, err := onePath(pos, "layout file")
	if err != nil {
		return greatwar.Event{}, err
	}
	l, err := readLayout(path, c.env)
	if err != nil {
		return greatwar.Event{}, err
	}
	t := engine.NewTable(l)
	problems, err := greatwar.CheckSetup(t)
	if err != nil {
		return greatwar.Event{}, err
	}
	if len(problems) > 0 {
		writeJSON(c.env.stdout, map[string]any{"problems": problems})
		return greatwar.Event{}, fmt.Errorf("the table breaks %d set-up rules (listed above)", len(problems))
	}
	players, _ := greatwar.PlayersOf(l)
	e := greatwar.Event{Kind: greatwar.KindSetup, RulesVersion: greatwar.CurrentRules, Options: &greatwar.Options{BattleForTheBones: c.on("bones")}}
	if _, err := l.Option("harvesters", &e.Options.Harvesters); err != nil {
		return e, err
	}
	for _, p := range players {
		e.Players = append(e.Players, greatwar.PlayerSetup{Name: p.Name, Faction: string(p.Faction), Alignment: string(p.Alignment), Army: startingArmy(l, p.Name)})
	}
	return e, nil
}

func runCampaignCheck(c *campaignCtx, pos []string) error {
	if c.rules != "" && c.rules != ledger.GreatWar {
		return usageError("check knows the set-up rules of greatwar only")
	}
	path, err := onePath(pos, "layout file")
	if err != nil {
		return err
	}
	l, err := readLayout(path, c.env)
	if err != nil {
		return err
	}
	problems, err := greatwar.CheckSetup(engine.NewTable(l))
	if err != nil {
		return err
	}
	if problems == nil {
		problems = []greatwar.Problem{}
	}
	if err := writeJSON(c.env.stdout, map[string]any{"problems": problems}); err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("the table breaks %d set-up rules", len(problems))
	}
	return nil
}

// proposal is the end of a Great War turn worked out from the table.
type proposal struct {
	greatwar.Income
	Captures []greatwar.Capture `json:"captures"`
	// IncomeRecorded says the income of the campaign's turn is already
	// recorded (its end-turn was undone): ending the turn records the
	// conquests and the end of the turn, not a second income.
	IncomeRecorded bool `json:"income_recorded,omitempty"`
	// from is the campaign's state the proposal was worked out from:
	// recording it is refused once the campaign has changed.
	from greatwar.State
}

// propose computes the conquests and the income of the table, for the
// campaign's state when a campaign is named.
func (c *campaignCtx) propose(path string) (proposal, error) {
	l, err := readLayout(path, c.env)
	if err != nil {
		return proposal{}, err
	}
	var st greatwar.State
	if c.name != "" {
		s, err := c.store.State(c.name)
		if err != nil {
			return proposal{}, err
		}
		gw, ok := s.(greatwar.State)
		if !ok {
			return proposal{}, fmt.Errorf("campaign %s does not play the Great War: no income", c.name)
		}
		st = gw
	}
	return proposeFor(l, st)
}

// proposeFor computes the conquests and the income of a table for a
// campaign's state (the zero State when there is no campaign). For a
// campaign the table must show the homeland of every player and of no
// one else (campaignTable), and the players' factions and alignments are
// the campaign's.
func proposeFor(l models.Layout, st greatwar.State) (proposal, error) {
	opt := greatwar.IncomeOptions{Harvesters: st.Options.Harvesters}
	if _, err := l.Option("harvesters", &opt.Harvesters); err != nil {
		return proposal{}, err
	}
	var notes []string
	if len(st.Players) > 0 {
		var err error
		if l, notes, err = campaignTable(l, st); err != nil {
			return proposal{}, err
		}
	}
	t := engine.NewTable(l)
	conq := st.Conquests()
	caps, err := greatwar.Captures(t, conq, st.Order)
	if err != nil {
		return proposal{}, err
	}
	players, err := greatwar.PlayersOf(l)
	if err != nil {
		return proposal{}, err
	}
	faction := map[string]greatwar.Faction{}
	for _, p := range players {
		faction[p.Name] = p.Faction
	}
	for _, cp := range caps {
		if conq == nil {
			conq = map[string]greatwar.Conquest{}
		}
		conq[cp.Homeland] = greatwar.Conquest{By: cp.By, ByFaction: faction[cp.By], Turn: st.Turn}
	}
	inc, err := greatwar.ComputeIncome(t, conq, opt)
	if err != nil {
		return proposal{}, err
	}
	if caps == nil {
		caps = []greatwar.Capture{}
	}
	if inc.Sources == nil {
		inc.Sources = []greatwar.Source{}
	}
	p := proposal{Income: inc, Captures: caps, from: st}
	p.Notes = append(notes, p.Notes...)
	if len(st.Players) > 0 && st.IncomeTurn == st.Turn {
		p.IncomeRecorded = true
		p.Notes = append(p.Notes, fmt.Sprintf("The income of turn %d is already recorded: ending the turn records only the conquests and the end of the turn.", st.Turn))
	}
	return p, nil
}

func runCampaignIncome(c *campaignCtx, pos []string) error {
	rules, err := c.campaignRules()
	if err != nil {
		return err
	}
	if rules != ledger.GreatWar {
		return usageError("income is a rule of greatwar; Esfah recruits instead (see recruit)")
	}
	path, err := onePath(pos, "layout file")
	if err != nil {
		return err
	}
	p, err := c.propose(path)
	if err != nil {
		return err
	}
	return writeJSON(c.env.stdout, p)
}

func runCampaignEndTurn(c *campaignCtx, pos []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	rules, err := c.campaignRules()
	if err != nil {
		return err
	}
	if rules != ledger.GreatWar || len(pos) == 0 {
		return c.append(name, json.RawMessage(`{"kind":"end-turn"}`))
	}
	path, err := onePath(pos, "layout file")
	if err != nil {
		return err
	}
	p, err := c.propose(path)
	if err != nil {
		if c.on("yes") {
			return fmt.Errorf("%w (nothing recorded)", err)
		}
		return err
	}
	if !c.on("yes") {
		return writeJSON(c.env.stdout, map[string]any{"proposal": p, "confirm": "run again with --yes to record it"})
	}
	return c.recordTurnEnd(name, p)
}

func (c *campaignCtx) recordTurnEnd(name string, p proposal) error {
	recs, err := recordGreatWar(c.store, name, proposalBasis{turn: p.from.Turn, state: p.from}, turnEndEvents(p))
	if err != nil {
		return err
	}
	out := map[string]any{"recorded": recs}
	if p.IncomeRecorded && len(recs) > 0 {
		out["notes"] = []string{fmt.Sprintf("No income recorded: the income of turn %d is already recorded.", recs[0].Turn)}
	}
	return writeJSON(c.env.stdout, out)
}

// turnEndEvents are the events that record a confirmed end of a Great War
// turn: the conquests, the income (unless the turn's income is already
// recorded), the end of the turn.
func turnEndEvents(p proposal) []greatwar.Event {
	var events []greatwar.Event
	for _, cp := range p.Captures {
		events = append(events, greatwar.Event{Kind: greatwar.KindConquest, Homeland: cp.Homeland, By: cp.By})
	}
	if !p.IncomeRecorded {
		events = append(events, greatwar.Event{Kind: greatwar.KindIncome, Sources: p.Sources})
	}
	return append(events, greatwar.Event{Kind: greatwar.KindEndTurn})
}

// recordGreatWar records the events of one confirmed proposal of a Great
// War campaign (an end of turn) worked out from the campaign as b says, all
// in one transaction or none of them (ledger.Store.AppendAll). Under the
// write lock, the campaign must still be as the proposal was worked out
// (b.check: else errStaleProposal, as when the CLI and the UI both end the
// same turn), and the events are applied in memory first, so that a
// refusal names the event the rules refuse.
func recordGreatWar(store *ledger.Store, name string, b proposalBasis, events []greatwar.Event) ([]ledger.Record, error) {
	payloads := make([]json.RawMessage, len(events))
	for i, e := range events {
		data, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		payloads[i] = data
	}
	check := func(s any) error {
		if err := b.check(s); err != nil {
			return err
		}
		st, ok := s.(greatwar.State)
		if !ok {
			return fmt.Errorf("the campaign does not play the Great War (nothing recorded)")
		}
		var err error
		for _, e := range events {
			if st, _, err = st.Apply(e); err != nil {
				return fmt.Errorf("%w (nothing recorded)", err)
			}
		}
		return nil
	}
	recs, err := store.AppendAll(name, payloads, check)
	if err != nil {
		return nil, fmt.Errorf("campaign %s: %w", name, err)
	}
	return recs, nil
}

func runCampaignOrder(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	st, err := c.store.State(name)
	if err != nil {
		return err
	}
	gw, ok := st.(greatwar.State)
	if !ok {
		return usageError("order draws the Great War's playing order; Esfah seats players by maneuver (record an \"order\" event)")
	}
	seed := uint64(time.Now().UnixNano())
	if s := c.str("seed"); s != "" {
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			return usageError("--seed: %v", err)
		}
	}
	var names []string
	for _, p := range gw.Players {
		names = append(names, p.Name)
	}
	order := greatwar.PlayingOrder(names, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
	data, _ := json.Marshal(greatwar.Event{Kind: greatwar.KindOrder, Order: order})
	return c.append(name, data)
}

func runCampaignBuy(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	cost, err := strconv.Atoi(c.str("cost"))
	if err != nil || c.str("player") == "" || c.str("unit") == "" {
		return usageError("give --player, --unit and --cost (gold)")
	}
	it := greatwar.Item{Name: c.str("unit"), Cost: cost, Faction: c.str("faction"), Unique: c.on("unique"), Spell: c.on("spell")}
	data, _ := json.Marshal(greatwar.Event{Kind: greatwar.KindPurchase, Orders: []greatwar.Order{{Player: c.str("player"), Items: []greatwar.Item{it}}}})
	return c.append(name, data)
}

func runCampaignBid(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	if c.str("unit") == "" {
		return usageError("give --unit and --bidders (none for a round nobody bids)")
	}
	bidders, err := splitNames("--bidders", c.str("bidders"))
	if err != nil {
		return err
	}
	data, _ := json.Marshal(greatwar.Event{Kind: greatwar.KindBid, Unit: c.str("unit"), Bidders: bidders})
	return c.append(name, data)
}

func runCampaignTransfer(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	g, err := strconv.Atoi(c.str("gold"))
	if err != nil || c.str("from") == "" || c.str("to") == "" {
		return usageError("give --from, --to and --gold")
	}
	data, _ := json.Marshal(greatwar.Event{Kind: greatwar.KindTransfer, Player: c.str("from"), To: c.str("to"), Gold: g})
	return c.append(name, data)
}

func runCampaignRecruit(c *campaignCtx, pos []string) error {
	if c.rules != ledger.Esfah {
		return usageError("recruit is a rule of esfah: give --rules esfah")
	}
	path, err := onePath(pos, "army file")
	if err != nil {
		return err
	}
	data, err := readCampaignInput(c, path)
	if err != nil {
		return err
	}
	var a esfah.Army
	if err := decodeArmy(data, &a); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	pts, err := esfah.Points(a)
	if err != nil {
		return err
	}
	var total esfah.Health
	for _, p := range pts {
		total += p
	}
	// The half rate is taken over all the points converted, so there is
	// no half rate per race: the races' figures would add up to more than
	// the points buy (3 + 5 points: 2 + 3, where the text gives 4).
	return writeJSON(c.env.stdout, map[string]any{"recruit": pts, "points": total, "pooled_half_rate": esfah.HalfRate(total)})
}
