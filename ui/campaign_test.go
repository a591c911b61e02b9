package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tableref/models"
)

// memCampaign is a campaign kept in memory: a player earns 1 gold per
// disk of his on the table ("disk" source); every recorded proposal is
// one event, and undo takes back the last one.
type memCampaign struct {
	start  map[string]int
	events []memEvent
	seen   []models.Layout // the tables proposals were made from
	refuse error           // Record fails with it when set
}

type memEvent struct {
	CampaignEvent
	income map[string]int
	srcs   []IncomeSource
}

func newMemCampaign() *memCampaign {
	return &memCampaign{start: map[string]int{"blue": 5, "red": 3}}
}

func (m *memCampaign) turn() int {
	n := 1
	for _, e := range m.events {
		if !e.Undone {
			n++
		}
	}
	return n
}

func (m *memCampaign) Status() (CampaignStatus, error) {
	st := CampaignStatus{Name: "test", Rules: "greatwar", Title: "The Great War", Turn: m.turn(), Unit: "gold"}
	gold := map[string]int{}
	for p, g := range m.start {
		gold[p] = g
	}
	var last *memEvent
	for i, e := range m.events {
		if e.Undone {
			continue
		}
		for p, g := range e.income {
			gold[p] += g
		}
		last = &m.events[i]
	}
	for _, p := range []string{"blue", "red"} {
		pl := CampaignPlayer{Name: p, Faction: map[string]string{"blue": "knights", "red": "orcs"}[p], Gold: gold[p]}
		if last != nil {
			st.IncomeTurn = last.Turn
			for _, s := range last.srcs {
				if s.Player == p {
					pl.Income = append(pl.Income, s)
				}
			}
		}
		st.Players = append(st.Players, pl)
	}
	return st, nil
}

func (m *memCampaign) ProposeEndTurn(l models.Layout) (TurnProposal, error) {
	m.seen = append(m.seen, l)
	p := TurnProposal{Turn: m.turn(), Income: map[string]int{"blue": 0, "red": 0}}
	for _, d := range l.Disks {
		p.Income[d.Owner]++
		p.Sources = append(p.Sources, IncomeSource{Player: d.Owner, Source: "disk", Terrain: d.ID, Gold: 1})
	}
	return p, nil
}

func (m *memCampaign) Record(p TurnProposal) ([]CampaignEvent, error) {
	if m.refuse != nil {
		return nil, m.refuse
	}
	if p.Turn != m.turn() {
		return nil, fmt.Errorf("the proposal ends turn %d, the campaign is in turn %d", p.Turn, m.turn())
	}
	e := memEvent{CampaignEvent: CampaignEvent{Seq: len(m.events) + 1, Turn: p.Turn, Kind: "income", Summary: fmt.Sprint(p.Income)}, income: p.Income, srcs: p.Sources}
	m.events = append(m.events, e)
	return []CampaignEvent{e.CampaignEvent}, nil
}

func (m *memCampaign) Undo() (CampaignEvent, error) {
	for i := len(m.events) - 1; i >= 0; i-- {
		if !m.events[i].Undone {
			m.events[i].Undone = true
			return m.events[i].CampaignEvent, nil
		}
	}
	return CampaignEvent{}, errors.New("nothing to undo")
}

func (m *memCampaign) History() ([]CampaignEvent, error) {
	out := make([]CampaignEvent, len(m.events))
	for i, e := range m.events {
		out[i] = e.CampaignEvent
	}
	return out, nil
}

func newCampaignUI(t *testing.T, c Campaign) *UI {
	t.Helper()
	a := test.NewApp()
	t.Cleanup(a.Quit)
	u, err := New(a, Options{Analyzer: pinAnalyzer{}, Settle: SettleGate{Frames: 1}, Campaign: c})
	if err != nil {
		t.Fatal(err)
	}
	u.Window.Resize(fyne.NewSize(1400, 800))
	return u
}

// tapButton taps the button with the given text in the Campaign tab.
func tapButton(t *testing.T, u *UI, text string) {
	t.Helper()
	var names []string
	for _, o := range test.LaidOutObjects(u.camp.box) {
		if b, ok := o.(*widget.Button); ok {
			if b.Text == text {
				test.Tap(b)
				return
			}
			names = append(names, b.Text)
		}
	}
	t.Fatalf("no %q button in the Campaign tab (buttons: %v):\n%s", text, names, texts(u.camp.box))
}

func wantTexts(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("Campaign tab: got\n%s\nwant it to contain %q", got, w)
		}
	}
}

func TestCampaignTabWithoutACampaignSaysHowToStartOne(t *testing.T) {
	u := newCampaignUI(t, nil)
	wantTexts(t, texts(u.camp.box), "No campaign open", "tableref campaign new --campaign war", "tableref ui --campaign war")
}

func TestCampaignTabShowsGoldPerPlayerAndIncomeBySource(t *testing.T) {
	m := newMemCampaign()
	m.events = []memEvent{{CampaignEvent: CampaignEvent{Seq: 1, Turn: 1, Kind: "income"}, income: map[string]int{"blue": 2},
		srcs: []IncomeSource{{Player: "blue", Source: "homeland", Terrain: "hb", Gold: 1}, {Player: "blue", Source: "forest", Terrain: "f1", Gold: 1}}}}
	u := newCampaignUI(t, m)
	wantTexts(t, texts(u.camp.box),
		"Campaign test · The Great War · turn 2",
		"blue (knights): 7 gold",
		"red (orcs): 3 gold",
		"income of turn 1: homeland (hb) 1 + forest (f1) 1 = 2",
		"income of turn 1: none",
		"#1 · turn 1 · income")
}

func TestEndTurnRecordsOnlyAfterConfirm(t *testing.T) {
	m := newMemCampaign()
	u := newCampaignUI(t, m)

	tapButton(t, u, "End turn…")
	if len(m.seen) != 0 || !strings.Contains(texts(u.camp.box), "No table yet") {
		t.Fatalf("End turn before any frame: got %d proposals and\n%s\nwant none and \"No table yet\"", len(m.seen), texts(u.camp.box))
	}

	u.Feed(frameOf(t, skirmish()))
	u.Step()
	tapButton(t, u, "End turn…")
	if len(m.seen) != 1 || len(m.seen[0].Disks) != 3 {
		t.Fatalf("the proposal must come from the table shown: got %d tables, want 1 of 3 disks", len(m.seen))
	}
	got := texts(u.camp.box)
	wantTexts(t, got, "End of turn 1, from the table shown (not recorded yet)",
		"blue: +2 gold (disk (archer) 1 + disk (knight) 1 = 2)", "red: +1 gold (disk (raider) 1 = 1)")
	if len(m.events) != 0 || !strings.Contains(got, "blue (knights): 5 gold") {
		t.Fatalf("before Confirm: got %d events recorded and\n%s\nwant none and blue still at 5", len(m.events), got)
	}

	tapButton(t, u, "Cancel")
	if len(m.events) != 0 || strings.Contains(texts(u.camp.box), "not recorded yet") {
		t.Fatalf("Cancel: got %d events and the proposal still shown, want none", len(m.events))
	}

	tapButton(t, u, "End turn…")
	tapButton(t, u, "Confirm and record")
	if len(m.events) != 1 || m.events[0].income["blue"] != 2 {
		t.Fatalf("after Confirm: got %+v, want one event with blue +2", m.events)
	}
	got = texts(u.camp.box)
	wantTexts(t, got, "Turn 1 ended: 1 events recorded.", "blue (knights): 7 gold", "red (orcs): 4 gold",
		"turn 2", "#1 · turn 1 · income")
	if strings.Contains(got, "not recorded yet") {
		t.Errorf("after Confirm the proposal is still shown:\n%s", got)
	}
}

func TestEndTurnShowsARefusal(t *testing.T) {
	m := newMemCampaign()
	m.refuse = errors.New("income: turn 1's income is already collected")
	u := newCampaignUI(t, m)
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	tapButton(t, u, "End turn…")
	tapButton(t, u, "Confirm and record")
	wantTexts(t, texts(u.camp.box), "Not recorded: income: turn 1's income is already collected", "blue (knights): 5 gold")
}

func TestUndoTakesBackTheLastEventAfterConfirmation(t *testing.T) {
	m := newMemCampaign()
	u := newCampaignUI(t, m)
	u.Feed(frameOf(t, skirmish()))
	u.Step()
	for range 2 {
		tapButton(t, u, "End turn…")
		tapButton(t, u, "Confirm and record")
	}
	wantTexts(t, texts(u.camp.box), "blue (knights): 9 gold")

	tapButton(t, u, "Undo last event…")
	wantTexts(t, texts(u.camp.box), "Undo this event?", "#2 · turn 2 · income")
	tapButton(t, u, "Keep it")
	if m.events[1].Undone {
		t.Fatal("Keep it undid the event")
	}

	tapButton(t, u, "Undo last event…")
	tapButton(t, u, "Undo it")
	if !m.events[1].Undone || m.events[0].Undone {
		t.Fatalf("after Undo it: got undone %v %v, want only event 2", m.events[0].Undone, m.events[1].Undone)
	}
	wantTexts(t, texts(u.camp.box), "blue (knights): 7 gold", "#2 · turn 2 · income", "(undone)", "turn 2")

	tapButton(t, u, "Undo last event…")
	m.events = append(m.events, memEvent{CampaignEvent: CampaignEvent{Seq: 3, Turn: 2, Kind: "transfer"}})
	tapButton(t, u, "Undo it")
	if m.events[0].Undone || m.events[2].Undone {
		t.Errorf("an event recorded elsewhere between the question and the answer: got it undone, want nothing undone")
	}
	wantTexts(t, texts(u.camp.box), "Not undone: the campaign changed")

	m.events = m.events[:2]
	m.events[0].Undone = true
	tapButton(t, u, "Undo last event…")
	wantTexts(t, texts(u.camp.box), "Nothing to undo.")
	if slices.ContainsFunc(test.LaidOutObjects(u.camp.box), func(o fyne.CanvasObject) bool {
		b, ok := o.(*widget.Button)
		return ok && b.Text == "Undo it"
	}) {
		t.Error("nothing to undo, yet an Undo it button is shown")
	}
}
