package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tableref/models"
)

// Campaign is a long campaign kept in a ledger, as the Campaign tab uses
// it. ui imports neither the ledger nor a database: cmd implements it (over
// the ledger and the campaign rules) and passes it in Options.Campaign.
// The methods are called on the UI goroutine and should be quick (a local
// database).
type Campaign interface {
	// Status reads the campaign's state, derived from its events.
	Status() (CampaignStatus, error)
	// ProposeEndTurn works out the end of the current turn from a table
	// (conquests and income); it records nothing.
	ProposeEndTurn(table models.Layout) (TurnProposal, error)
	// Record records a proposal the players confirmed, as it was proposed,
	// and returns the events recorded. A proposal made for another turn
	// than the current one is refused, and nothing is recorded when the
	// rules refuse any part of it.
	Record(p TurnProposal) ([]CampaignEvent, error)
	// Undo sets the last live event aside and returns it.
	Undo() (CampaignEvent, error)
	// History lists every event, oldest first, undone ones marked.
	History() ([]CampaignEvent, error)
}

// CampaignStatus is what the Campaign tab shows of a campaign.
type CampaignStatus struct {
	Name  string
	Rules string // "greatwar", "esfah"
	// Title names the rules for people ("The Great War").
	Title string
	Turn  int
	// Unit is what a player's Gold counts: "gold" in The Great War,
	// "health in the recruiting pool" in Esfah.
	Unit    string
	Players []CampaignPlayer
	// IncomeTurn is the turn of the last recorded income (0: none yet).
	IncomeTurn int
	// Notes are short remarks (no playing order drawn yet, a winner...).
	Notes []string
}

// CampaignPlayer is one player of a campaign.
type CampaignPlayer struct {
	Name    string
	Faction string
	Side    string
	Gold    int
	// Income is the player's last recorded income (of IncomeTurn), by
	// source.
	Income []IncomeSource
	// Note is shown after the gold: why the player collects nothing
	// ("homeland conquered by ursula in turn 1: no income"), the terrains
	// held...
	Note string
}

// IncomeSource is gold a player collects from one source: "homeland",
// "forest", "lake", "mountain", "plunder"; Terrain is the terrain disk's
// id when the gold comes from one.
type IncomeSource struct {
	Player  string
	Source  string
	Terrain string
	Gold    int
}

// TurnConquest is a homeland conquered at the end of a turn: the
// homeland's owner, the conqueror and the units each enemy had on it.
type TurnConquest struct {
	Homeland string
	Terrain  string
	By       string
	Units    map[string]int
}

// TurnProposal is the end of a turn worked out from the table, for the
// players to confirm.
type TurnProposal struct {
	// Turn is the turn it ends.
	Turn      int
	Income    map[string]int
	Sources   []IncomeSource
	Conquests []TurnConquest
	// Blocked and Notes explain gold not collected.
	Blocked []string
	Notes   []string
}

// CampaignEvent is one event of a campaign's history.
type CampaignEvent struct {
	Seq     int
	Turn    int
	At      time.Time
	Kind    string
	Player  string
	Summary string
	Undone  bool
}

// historyShown is how many events the tab lists, newest first.
const historyShown = 40

// campaignPanel is the Campaign tab. UI goroutine only.
type campaignPanel struct {
	c Campaign
	// table returns the layout currently shown, false before the first
	// frame.
	table func() (models.Layout, bool)
	box   *fyne.Container
	// proposal waits for Confirm; undo waits for its confirmation.
	proposal *TurnProposal
	undo     *CampaignEvent
	message  string
	failed   bool
}

func newCampaignPanel(c Campaign, table func() (models.Layout, bool)) *campaignPanel {
	p := &campaignPanel{c: c, table: table, box: container.NewVBox()}
	p.render()
	return p
}

// campaignTab builds the Campaign tab of the window.
func (u *UI) campaignTab() fyne.CanvasObject {
	u.camp = newCampaignPanel(u.opts.Campaign, u.currentTable)
	return container.NewVScroll(u.camp.box)
}

// currentTable returns the corrected layout of the frame shown.
func (u *UI) currentTable() (models.Layout, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.layout, u.frame != nil
}

// render rebuilds the tab from the campaign.
func (p *campaignPanel) render() {
	p.box.Objects = p.rows()
	p.box.Refresh()
}

func (p *campaignPanel) rows() []fyne.CanvasObject {
	if p.c == nil {
		return []fyne.CanvasObject{
			heading("No campaign open"),
			wrapped("Start one from the table of the homelands, then open the window with it:"),
			wrapped("tableref campaign new --campaign war --rules greatwar homelands.json"),
			wrapped("tableref ui --campaign war table.json"),
			wrapped("(--db PATH, or --campaign FILE.db, for a campaign kept in another database file; see \"tableref campaign --help\".)"),
		}
	}
	st, err := p.c.Status()
	if err != nil {
		return []fyne.CanvasObject{heading("Campaign"), errorText("The campaign cannot be read: " + err.Error()),
			widget.NewButton("Refresh", p.refresh)}
	}
	out := []fyne.CanvasObject{heading(fmt.Sprintf("Campaign %s · %s · turn %d", st.Name, st.Title, st.Turn))}
	out = append(out, playerRows(st)...)
	for _, n := range st.Notes {
		out = append(out, wrapped(n))
	}
	out = append(out, container.NewHBox(
		widget.NewButton("End turn…", p.proposeEndTurn),
		widget.NewButton("Undo last event…", p.askUndo),
		widget.NewButton("Refresh", p.refresh),
	))
	if p.message != "" {
		if p.failed {
			out = append(out, errorText(p.message))
		} else {
			out = append(out, wrapped(p.message))
		}
	}
	if p.proposal != nil {
		out = append(out, p.proposalRows(st)...)
	}
	if p.undo != nil {
		out = append(out,
			heading("Undo this event?"),
			wrapped(eventLine(*p.undo)),
			container.NewHBox(widget.NewButton("Undo it", p.confirmUndo), widget.NewButton("Keep it", p.cancel)))
	}
	return append(out, p.historyRows()...)
}

// playerRows shows each player's gold and last income by source.
func playerRows(st CampaignStatus) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, pl := range st.Players {
		who := pl.Name
		if tags := nonEmpty(pl.Faction, pl.Side); len(tags) > 0 {
			who += " (" + strings.Join(tags, ", ") + ")"
		}
		line := fmt.Sprintf("%s: %d %s", who, pl.Gold, st.Unit)
		if pl.Note != "" {
			line += " · " + pl.Note
		}
		l := wrapped(line)
		l.TextStyle.Bold = true
		out = append(out, l)
		switch {
		case st.IncomeTurn == 0 && st.Unit == "gold":
			out = append(out, wrapped("    no income recorded yet"))
		case st.IncomeTurn > 0:
			out = append(out, wrapped(fmt.Sprintf("    income of turn %d: %s", st.IncomeTurn, sourcesText(pl.Income))))
		}
	}
	return out
}

// sourcesText is an income by source: "homeland 1 + forest (f1) 1 = 2".
func sourcesText(srcs []IncomeSource) string {
	if len(srcs) == 0 {
		return "none"
	}
	parts := make([]string, len(srcs))
	total := 0
	for i, s := range srcs {
		name := s.Source
		if s.Terrain != "" {
			name += " (" + s.Terrain + ")"
		}
		parts[i] = fmt.Sprintf("%s %d", name, s.Gold)
		total += s.Gold
	}
	return fmt.Sprintf("%s = %d", strings.Join(parts, " + "), total)
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// errorText is a message in the danger colour, wrapped.
func errorText(s string) *widget.Label {
	l := wrapped(s)
	l.Importance = widget.DangerImportance
	return l
}

// proposalRows shows the proposed end of turn with Confirm and Cancel.
func (p *campaignPanel) proposalRows(st CampaignStatus) []fyne.CanvasObject {
	pr := *p.proposal
	out := []fyne.CanvasObject{heading(fmt.Sprintf("End of turn %d, from the table shown (not recorded yet)", pr.Turn))}
	for _, c := range pr.Conquests {
		out = append(out, wrapped(fmt.Sprintf("Conquest: %s takes the homeland of %s (%s) and all its gold; units on it: %s", c.By, c.Homeland, c.Terrain, unitCounts(c.Units))))
	}
	names := make([]string, 0, len(pr.Income))
	for n := range pr.Income {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		var mine []IncomeSource
		for _, s := range pr.Sources {
			if s.Player == n {
				mine = append(mine, s)
			}
		}
		out = append(out, wrapped(fmt.Sprintf("%s: +%d %s (%s)", n, pr.Income[n], st.Unit, sourcesText(mine))))
	}
	if len(pr.Income) == 0 && len(pr.Conquests) == 0 {
		out = append(out, wrapped("No income or conquest: the turn simply ends."))
	}
	for _, b := range pr.Blocked {
		out = append(out, wrapped("Blocked: "+b))
	}
	for _, n := range pr.Notes {
		out = append(out, wrapped("Note: "+n))
	}
	confirm := widget.NewButton("Confirm and record", p.confirm)
	confirm.Importance = widget.HighImportance
	return append(out, container.NewHBox(confirm, widget.NewButton("Cancel", p.cancel)))
}

func unitCounts(units map[string]int) string {
	names := make([]string, 0, len(units))
	for n := range units {
		names = append(names, n)
	}
	slices.Sort(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, units[n])
	}
	return strings.Join(parts, ", ")
}

// historyRows lists the events, newest first.
func (p *campaignPanel) historyRows() []fyne.CanvasObject {
	evs, err := p.c.History()
	if err != nil {
		return []fyne.CanvasObject{heading("History"), errorText("The history cannot be read: " + err.Error())}
	}
	out := []fyne.CanvasObject{heading(fmt.Sprintf("History (%d events, newest first)", len(evs)))}
	for i := len(evs) - 1; i >= 0 && len(evs)-i <= historyShown; i-- {
		out = append(out, wrapped(eventLine(evs[i])))
	}
	if len(evs) > historyShown {
		out = append(out, wrapped(fmt.Sprintf("… %d older events (tableref campaign history lists them all)", len(evs)-historyShown)))
	}
	return out
}

func eventLine(e CampaignEvent) string {
	s := fmt.Sprintf("#%d · turn %d · %s", e.Seq, e.Turn, e.Kind)
	if e.Player != "" {
		s += " · " + e.Player
	}
	if e.Summary != "" {
		s += ": " + e.Summary
	}
	if e.Undone {
		s += " (undone)"
	}
	return s
}

func (p *campaignPanel) say(msg string, failed bool) {
	p.message, p.failed = msg, failed
	p.render()
}

func (p *campaignPanel) refresh() { p.say("", false) }

// proposeEndTurn works out the end of the turn from the table shown.
func (p *campaignPanel) proposeEndTurn() {
	p.proposal, p.undo = nil, nil
	l, ok := p.table()
	if !ok {
		p.say("No table yet: the end of the turn is worked out from the table shown.", true)
		return
	}
	pr, err := p.c.ProposeEndTurn(l)
	if err != nil {
		p.say("Cannot propose the end of the turn: "+err.Error(), true)
		return
	}
	p.proposal = &pr
	p.say("Check the proposal with the players, then confirm it.", false)
}

// confirm records the proposal shown.
func (p *campaignPanel) confirm() {
	if p.proposal == nil {
		return
	}
	pr := *p.proposal
	p.proposal = nil
	recs, err := p.c.Record(pr)
	if err != nil && len(recs) > 0 {
		// Some events went in before the error: say so, and which, so
		// that the players can undo them or record the rest.
		lines := make([]string, len(recs))
		for i, e := range recs {
			lines[i] = eventLine(e)
		}
		p.say(fmt.Sprintf("Only partly recorded: %d event(s) recorded (%s) before: %v. Check the history; undo them or record the rest.",
			len(recs), strings.Join(lines, "; "), err), true)
		return
	}
	if err != nil {
		p.say("Not recorded: "+err.Error(), true)
		return
	}
	p.say(fmt.Sprintf("Turn %d ended: %d events recorded.", pr.Turn, len(recs)), false)
}

func (p *campaignPanel) cancel() {
	p.proposal, p.undo = nil, nil
	p.say("", false)
}

// askUndo shows the last live event and asks to confirm its undo.
func (p *campaignPanel) askUndo() {
	p.proposal, p.undo = nil, nil
	if _, err := p.c.History(); err != nil {
		p.say("The history cannot be read: "+err.Error(), true)
		return
	}
	e, ok := p.lastLive()
	if !ok {
		p.say("Nothing to undo.", true)
		return
	}
	p.undo = &e
	p.say("", false)
}

func (p *campaignPanel) confirmUndo() {
	if p.undo == nil {
		return
	}
	want := *p.undo
	p.undo = nil
	if last, ok := p.lastLive(); !ok || last.Seq != want.Seq {
		p.say(fmt.Sprintf("Not undone: the campaign changed since you asked to undo #%d; ask again.", want.Seq), true)
		return
	}
	got, err := p.c.Undo()
	if err != nil {
		p.say("Not undone: "+err.Error(), true)
		return
	}
	if got.Seq != want.Seq {
		// The campaign changed between the check and the undo (the
		// command line, another window): say what was undone.
		p.say(fmt.Sprintf("Undone: %s, and not #%d as asked: the campaign changed meanwhile. Check the history.", eventLine(got), want.Seq), true)
		return
	}
	p.say("Undone: "+eventLine(got), false)
}

// lastLive returns the last event not undone.
func (p *campaignPanel) lastLive() (CampaignEvent, bool) {
	evs, err := p.c.History()
	if err != nil {
		return CampaignEvent{}, false
	}
	for i := len(evs) - 1; i >= 0; i-- {
		if !evs[i].Undone {
			return evs[i], true
		}
	}
	return CampaignEvent{}, false
}
