package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tableref/engine/esfah"
	"tableref/engine/greatwar"
	"tableref/models"
	"tableref/ui"
)

// newWarDB makes a database with the Great War campaign "war" set up from
// the homelands of testdata/campaign/greatwar_setup.json.
func newWarDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "war.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	return db
}

func loadLayout(t *testing.T, path string) models.Layout {
	t.Helper()
	l, err := models.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func goldOf(st ui.CampaignStatus) map[string]int {
	out := map[string]int{}
	for _, p := range st.Players {
		out[p.Name] = p.Gold
	}
	return out
}

// TestLedgerCampaignProposesRecordsAndUndoes drives the Campaign tab's
// interface over the real ledger: turn 1 of the test campaign (the Uthuk
// alone on the Knights' homeland, the Elves' Peasants in the forest, the
// Orcs' Grugs on the lake).
func TestLedgerCampaignProposesRecordsAndUndoes(t *testing.T) {
	db := newWarDB(t)
	c, err := openUICampaign(db, "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.Status()
	if err != nil {
		t.Fatal(err)
	}
	if st.Name != "war" || st.Turn != 1 || st.Unit != "gold" || len(st.Players) != 4 || st.IncomeTurn != 0 {
		t.Fatalf("status of the new campaign: got %+v, want war, turn 1, 4 players, no income yet", st)
	}

	p, err := c.ProposeEndTurn(loadLayout(t, gwTurn1))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"kate": 0, "eli": 3, "oscar": 3, "ursula": 3}; !equalMaps(p.Income, want) {
		t.Errorf("proposed income: got %v, want %v", p.Income, want)
	}
	if len(p.Conquests) != 1 || p.Conquests[0].Homeland != "kate" || p.Conquests[0].By != "ursula" {
		t.Errorf("proposed conquests: got %+v, want ursula taking kate's homeland", p.Conquests)
	}
	if h, _ := c.History(); len(h) != 1 {
		t.Fatalf("a proposal recorded something: got %d events, want the setup alone", len(h))
	}

	recs, err := c.Record(p)
	if err != nil {
		t.Fatal(err)
	}
	if kinds := eventKinds(recs); kinds != "conquest income end-turn" {
		t.Errorf("recorded: got %s, want conquest income end-turn", kinds)
	}
	st, _ = c.Status()
	if want := map[string]int{"kate": 0, "eli": 3, "oscar": 3, "ursula": 3}; st.Turn != 2 || !equalMaps(goldOf(st), want) || st.IncomeTurn != 1 {
		t.Errorf("after recording: got turn %d gold %v income turn %d, want turn 2, %v, 1", st.Turn, goldOf(st), st.IncomeTurn, want)
	}
	for _, pl := range st.Players {
		if pl.Name == "ursula" && (len(pl.Income) != 1 || pl.Income[0].Source != "plunder" || pl.Income[0].Gold != 3) {
			t.Errorf("ursula's income by source: got %+v, want plunder 3", pl.Income)
		}
		if pl.Name == "kate" && !strings.Contains(pl.Note, "conquered by ursula in turn 1") {
			t.Errorf("kate's note: got %q, want her homeland conquered by ursula", pl.Note)
		}
	}

	if _, err := c.Record(p); err == nil || !strings.Contains(err.Error(), "propose again") {
		t.Errorf("recording the turn-1 proposal again in turn 2: got %v, want a refusal", err)
	}
	if h, _ := c.History(); len(h) != 4 {
		t.Errorf("after the refused record: got %d events, want 4", len(h))
	}

	undone, err := c.Undo()
	if err != nil || undone.Kind != "end-turn" {
		t.Fatalf("undo: got %+v, %v; want the end-turn", undone, err)
	}
	st, _ = c.Status()
	if st.Turn != 1 {
		t.Errorf("after undo: got turn %d, want 1", st.Turn)
	}
	// The income of turn 1 is recorded: ending the turn again proposes no
	// income and no conquest (kate's homeland is already taken).
	p, err = c.ProposeEndTurn(loadLayout(t, gwTurn1))
	if err != nil {
		t.Fatal(err)
	}
	if p.Income != nil || len(p.Conquests) != 0 {
		t.Errorf("proposal once the income is recorded: got income %v conquests %v, want none", p.Income, p.Conquests)
	}
	if recs, err = c.Record(p); err != nil || eventKinds(recs) != "end-turn" {
		t.Errorf("recording it: got %s, %v; want end-turn alone", eventKinds(recs), err)
	}
	h, _ := c.History()
	if len(h) != 5 || !h[3].Undone || h[4].Kind != "end-turn" || h[2].Summary != "eli +3 gold; oscar +3 gold; ursula +3 gold" || h[1].Summary != "ursula conquers the homeland of kate" {
		t.Errorf("history: got %+v, want setup, conquest, income, an undone end-turn, end-turn", h)
	}
}

func eventKinds(evs []ui.CampaignEvent) string {
	var k []string
	for _, e := range evs {
		k = append(k, e.Kind)
	}
	return strings.Join(k, " ")
}

// TestLedgerCampaignRecordsNothingWhenTheRulesRefuse: a proposal whose
// income the rules refuse (kate's homeland was conquered since) leaves
// the ledger as it was, conquest included.
func TestLedgerCampaignRecordsNothingWhenTheRulesRefuse(t *testing.T) {
	db := newWarDB(t)
	c, err := openUICampaign("war", db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p := ui.TurnProposal{Turn: 1, Income: map[string]int{"kate": 1},
		Sources:   []ui.IncomeSource{{Player: "kate", Source: "homeland", Terrain: "hk", Gold: 1}},
		Conquests: []ui.TurnConquest{{Homeland: "kate", By: "ursula"}}}
	if _, err := c.Record(p); err == nil || !strings.Contains(err.Error(), "nothing recorded") {
		t.Errorf("got %v, want a refusal saying nothing was recorded", err)
	}
	if h, _ := c.History(); len(h) != 1 {
		t.Errorf("got %d events, want the setup alone", len(h))
	}
}

func TestOpenUICampaignErrors(t *testing.T) {
	db := newWarDB(t)
	two := filepath.Join(t.TempDir(), "two.db")
	mustCLI(t, two, "", "new", "--campaign", "a", "--rules", "esfah", "--players", "x,y", "--health", "120")
	mustCLI(t, two, "", "new", "--campaign", "b", "--rules", "esfah", "--players", "x,y", "--health", "120")
	missing := filepath.Join(t.TempDir(), "missing.db")
	cases := []struct {
		name                 string
		campaign, db, choose string
		want                 string
	}{
		{"a missing database file", missing, "", "", "no campaign database there"},
		{"a file of two campaigns without --name", two, "", "", "holds 2 campaigns (a, b): choose one with --name"},
		{"an unknown campaign", "nope", db, "", "no such campaign"},
		{"an unknown --name", two, "", "c", "no such campaign"},
		{"a file given twice", db, two, "", "give the file once"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := openUICampaign(c.campaign, c.db, c.choose)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("opening a missing database file created it (%v)", err)
	}
	only, err := openUICampaign("", db, "")
	if err != nil || only.name != "war" {
		t.Errorf("--db alone: got %v, want the only campaign of the file, war", err)
	} else {
		only.Close()
	}
	c, err := openUICampaign(two, "", "b")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.Status()
	if err != nil || st.Name != "b" || st.Unit != "health in the recruiting pool" || goldOf(st)["x"] != 60 {
		t.Errorf("campaign b of two.db: got %+v, %v; want b with pools of 60", st, err)
	}
}

// TestCampaignTabEndsATurnInTheWindow opens the referee window (Fyne's
// test driver) on the turn-1 table with the real campaign, and ends the
// turn with the tab's buttons.
func TestCampaignTabEndsATurnInTheWindow(t *testing.T) {
	db := newWarDB(t)
	c, err := openUICampaign("war", db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a := test.NewApp()
	defer a.Quit()
	u, err := ui.New(a, ui.Options{Campaign: c, Settle: ui.SettleGate{Frames: 1}})
	if err != nil {
		t.Fatal(err)
	}
	u.Window.Resize(fyne.NewSize(1400, 900))
	l := loadLayout(t, gwTurn1)
	img, withPixels := ui.RenderLayout(l, ui.FitView([]models.Layout{l}, 900, 600))
	u.Feed(ui.Frame{Image: img, Layout: withPixels, Seq: 1, Time: time.Unix(0, 0)})
	u.Step()
	selectTab(t, u.Window.Content(), "Campaign")

	tapText(t, u.Window.Content(), "End turn…")
	if got := labels(u.Window.Content()); !strings.Contains(got, "ursula: +3 gold (plunder (hk) 3 = 3)") || !strings.Contains(got, "Conquest: ursula takes the homeland of kate") {
		t.Errorf("the proposal: got\n%s\nwant ursula's plunder and the conquest", got)
	}
	if h, _ := c.History(); len(h) != 1 {
		t.Fatalf("before Confirm: got %d events, want the setup alone", len(h))
	}
	tapText(t, u.Window.Content(), "Confirm and record")
	if h, _ := c.History(); eventKinds(h) != "setup conquest income end-turn" {
		t.Errorf("after Confirm: got %s, want setup conquest income end-turn", eventKinds(h))
	}
	if got := labels(u.Window.Content()); !strings.Contains(got, "eli (elves, good): 3 gold") || !strings.Contains(got, "turn 2") {
		t.Errorf("after Confirm: got\n%s\nwant eli at 3 gold in turn 2", got)
	}
	tapText(t, u.Window.Content(), "Undo last event…")
	tapText(t, u.Window.Content(), "Undo it")
	if h, _ := c.History(); !h[len(h)-1].Undone {
		t.Errorf("after Undo it: the end-turn is still live")
	}
}

func selectTab(t *testing.T, root fyne.CanvasObject, name string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(root) {
		if tabs, ok := o.(*container.AppTabs); ok {
			for _, it := range tabs.Items {
				if it.Text == name {
					tabs.Select(it)
					return
				}
			}
		}
	}
	t.Fatalf("no %s tab", name)
}

func tapText(t *testing.T, root fyne.CanvasObject, text string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(root) {
		if b, ok := o.(*widget.Button); ok && b.Text == text && b.Visible() {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no %q button in the window:\n%s", text, labels(root))
}

func labels(root fyne.CanvasObject) string {
	var b strings.Builder
	for _, o := range test.LaidOutObjects(root) {
		if l, ok := o.(*widget.Label); ok && l.Visible() {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// TestLedgerCampaignRefusesATableWithoutAPlayersHomeland: the Campaign
// tab refuses, as "campaign end-turn" does, to propose the end of a turn
// from a table that lacks eli's homeland, and says so in its status line.
func TestLedgerCampaignRefusesATableWithoutAPlayersHomeland(t *testing.T) {
	db := newWarDB(t)
	c, err := openUICampaign("war", db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	noEli := loadLayout(t, withoutDisk(t, gwTurn1, "he"))
	var missing *missingHomelands
	if _, err := c.ProposeEndTurn(noEli); !errors.As(err, &missing) || !strings.Contains(err.Error(), "no homeland of eli") {
		t.Errorf("proposal: got %v, want a refusal naming eli's homeland", err)
	}

	a := test.NewApp()
	defer a.Quit()
	u, err := ui.New(a, ui.Options{Campaign: c, Settle: ui.SettleGate{Frames: 1}})
	if err != nil {
		t.Fatal(err)
	}
	u.Window.Resize(fyne.NewSize(1400, 900))
	img, withPixels := ui.RenderLayout(noEli, ui.FitView([]models.Layout{noEli}, 900, 600))
	u.Feed(ui.Frame{Image: img, Layout: withPixels, Seq: 1, Time: time.Unix(0, 0)})
	u.Step()
	selectTab(t, u.Window.Content(), "Campaign")
	tapText(t, u.Window.Content(), "End turn…")
	if got := labels(u.Window.Content()); !strings.Contains(got, "Cannot propose the end of the turn: ") || !strings.Contains(got, "no homeland of eli") {
		t.Errorf("status line: got\n%s\nwant the refusal naming eli's homeland", got)
	}
	if h, _ := c.History(); len(h) != 1 {
		t.Errorf("got %d events, want the setup alone", len(h))
	}
}

// TestEsfahStatusShowsReplayWarnings: the warnings a replayed Esfah ledger
// carries (events older versions recorded that today's rules refuse) are
// notes of the Campaign tab, as `campaign status` shows them.
func TestEsfahStatusShowsReplayWarnings(t *testing.T) {
	var out ui.CampaignStatus
	esfahStatus(&out, esfah.State{Players: []string{"chris"}, Warnings: []string{"event 3: a capture names no player"}})
	if !slices.ContainsFunc(out.Notes, func(n string) bool { return strings.Contains(n, "a capture names no player") }) {
		t.Errorf("notes %v: want the replay warning", out.Notes)
	}
}

// TestGreatWarStatusShowsTheWinnerAndWarnings: the side that conquered
// every enemy homeland, and the warnings of items an earlier rules version
// accepted, are notes of the Campaign tab, as `campaign status` shows them.
func TestGreatWarStatusShowsTheWinnerAndWarnings(t *testing.T) {
	var out ui.CampaignStatus
	st := greatwar.State{
		Players:  []greatwar.Player{{Name: "kate", Alignment: greatwar.Good}, {Name: "eli", Alignment: greatwar.Evil}},
		Winner:   greatwar.Good,
		WonTurn:  4,
		Warnings: []string{"turn 1: kate's Catapults: accepted under rules version 1"},
	}
	greatWarStatus(&out, st, nil)
	notes := strings.Join(out.Notes, "\n")
	for _, want := range []string{"The good side won in turn 4", "kate", "kate's Catapults: accepted under rules version 1"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes:\n%s\nwant %q", notes, want)
		}
	}
}

// TestLedgerCampaignRefusesAStaleProposal: the CLI and the UI open on the
// same campaign. The UI proposes the end of turn 1, the CLI ends turn 1,
// then the players confirm the UI's proposal: it is refused with nothing
// recorded, where recording it would end turn 2 as well.
func TestLedgerCampaignRefusesAStaleProposal(t *testing.T) {
	db := newWarDB(t)
	c, err := openUICampaign("war", db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := c.ProposeEndTurn(loadLayout(t, gwTurn1))
	if err != nil || p.Turn != 1 {
		t.Fatalf("the proposal: got turn %d, %v; want turn 1", p.Turn, err)
	}
	mustCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1)
	recs, err := c.Record(p)
	if !errors.Is(err, errStaleProposal) || !strings.Contains(err.Error(), "propose again") || len(recs) != 0 {
		t.Errorf("recording the stale proposal: got %d events, %v; want a refusal (propose again) and none", len(recs), err)
	}
	st, _ := c.Status()
	if want := map[string]int{"kate": 0, "eli": 3, "oscar": 3, "ursula": 3}; st.Turn != 2 || !equalMaps(goldOf(st), want) {
		t.Errorf("after the refusal: got turn %d gold %v, want turn 2 and %v (one end of turn)", st.Turn, goldOf(st), want)
	}
	if h, _ := c.History(); len(h) != 4 {
		t.Errorf("got %d events, want the setup and the CLI's conquest, income and end-turn", len(h))
	}
}

// TestLedgerCampaignRefusesAProposalTheCampaignChangedUnder: the turn is
// the same but the campaign changed between the proposal and its
// confirmation. After the end of turn 1 is undone, the UI proposes ending
// turn 1 again without income (already recorded); the CLI then undoes the
// income too. Confirming the proposal would end turn 1 with no income at
// all: it is refused, nothing recorded. Proposed again, it has the income.
func TestLedgerCampaignRefusesAProposalTheCampaignChangedUnder(t *testing.T) {
	db := newWarDB(t)
	mustCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1)
	mustCLI(t, db, "", "undo", "--campaign", "war")
	c, err := openUICampaign("war", db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := c.ProposeEndTurn(loadLayout(t, gwTurn1))
	if err != nil || p.Turn != 1 || p.Income != nil {
		t.Fatalf("the proposal: got turn %d income %v, %v; want turn 1 without income", p.Turn, p.Income, err)
	}
	mustCLI(t, db, "", "undo", "--campaign", "war") // the CLI undoes the income
	recs, err := c.Record(p)
	if !errors.Is(err, errStaleProposal) || !strings.Contains(err.Error(), "propose again") || len(recs) != 0 {
		t.Errorf("recording the stale proposal: got %d events, %v; want a refusal (propose again) and none", len(recs), err)
	}
	if st, _ := c.Status(); st.Turn != 1 || st.IncomeTurn != 0 {
		t.Errorf("after the refusal: got turn %d, income turn %d; want turn 1, no income", st.Turn, st.IncomeTurn)
	}
	if h, _ := c.History(); len(h) != 4 {
		t.Errorf("got %d events, want the 4 of before (nothing recorded)", len(h))
	}
	if p, err = c.ProposeEndTurn(loadLayout(t, gwTurn1)); err != nil || p.Income == nil {
		t.Fatalf("proposed again: got income %v, %v; want turn 1's income", p.Income, err)
	}
	if recs, err = c.Record(p); err != nil || eventKinds(recs) != "income end-turn" {
		t.Errorf("recording it: got %s, %v; want income end-turn", eventKinds(recs), err)
	}
	if st, _ := c.Status(); st.Turn != 2 || st.IncomeTurn != 1 || goldOf(st)["eli"] != 3 {
		t.Errorf("after it: got turn %d, income turn %d, eli's gold %d; want 2, 1, 3", st.Turn, st.IncomeTurn, goldOf(st)["eli"])
	}
}

// TestLedgerCampaignRefusesAStaleEsfahProposal: the same for an Esfah
// round, whose end is one event.
func TestLedgerCampaignRefusesAStaleEsfahProposal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	mustCLI(t, db, "", "new", "--campaign", "e", "--rules", "esfah", "--players", "x,y", "--health", "120")
	c, err := openUICampaign("e", db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p, err := c.ProposeEndTurn(models.Layout{})
	if err != nil || p.Turn != 1 {
		t.Fatalf("the proposal: got round %d, %v; want 1", p.Turn, err)
	}
	mustCLI(t, db, "", "end-turn", "--campaign", "e")
	if _, err := c.Record(p); !errors.Is(err, errStaleProposal) {
		t.Errorf("recording the stale proposal: got %v, want a refusal (propose again)", err)
	}
	if st, _ := c.Status(); st.Turn != 2 {
		t.Errorf("after the refusal: got round %d, want 2", st.Turn)
	}
	if p, err = c.ProposeEndTurn(models.Layout{}); err != nil {
		t.Fatal(err)
	}
	if recs, err := c.Record(p); err != nil || eventKinds(recs) != "end-turn" {
		t.Errorf("proposed again: got %s, %v; want end-turn", eventKinds(recs), err)
	}
}

// racyLedgerCampaign: the CLI (another connection to the file) records an
// event in the instant between the tab's last check of the history and
// its undo.
type racyLedgerCampaign struct {
	*ledgerCampaign
	t  *testing.T
	db string
}

func (r racyLedgerCampaign) Undo() (ui.CampaignEvent, error) {
	mustCLI(r.t, r.db, "", "transfer", "--campaign", "war", "--from", "eli", "--to", "kate", "--gold", "1")
	return r.ledgerCampaign.Undo()
}

// TestCampaignTabUndoRefusesAnEventRecordedMeanwhile: the tab shows the
// end-turn (#4) and the player confirms its undo; the CLI's transfer (#5)
// arrives just before the undo. The undo is refused with nothing undone
// (the old tab undid the transfer, then said so); the transfer stays.
func TestCampaignTabUndoRefusesAnEventRecordedMeanwhile(t *testing.T) {
	db := newWarDB(t)
	mustCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1)
	c, err := openUICampaign("war", db, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	a := test.NewApp()
	defer a.Quit()
	u, err := ui.New(a, ui.Options{Campaign: racyLedgerCampaign{c, t, db}, Settle: ui.SettleGate{Frames: 1}})
	if err != nil {
		t.Fatal(err)
	}
	u.Window.Resize(fyne.NewSize(1400, 900))
	selectTab(t, u.Window.Content(), "Campaign")
	tapText(t, u.Window.Content(), "Undo last event…")
	if got := labels(u.Window.Content()); !strings.Contains(got, "#4 · turn 1 · end-turn") {
		t.Fatalf("asked to undo: got\n%s\nwant the end-turn #4 shown", got)
	}
	tapText(t, u.Window.Content(), "Undo it")
	got := labels(u.Window.Content())
	if !strings.Contains(got, "Not undone: campaign war: the campaign changed: the last event is #5, not #4; nothing undone") {
		t.Errorf("after Undo it with #5 recorded meanwhile: the tab says\n%s\nwant the refusal", got)
	}
	h, _ := c.History()
	if eventKinds(h) != "setup conquest income end-turn transfer" {
		t.Fatalf("history: got %s, want setup conquest income end-turn transfer", eventKinds(h))
	}
	for _, e := range h {
		if e.Undone {
			t.Errorf("event #%d (%s) was undone; want nothing undone", e.Seq, e.Kind)
		}
	}
	if st, _ := c.Status(); st.Turn != 2 || goldOf(st)["kate"] != 1 {
		t.Errorf("after the refusal: got turn %d, kate's gold %d; want turn 2 and 1 (the transfer counts)", st.Turn, goldOf(st)["kate"])
	}
}
