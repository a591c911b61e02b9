package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"tableref/engine/greatwar"
	"tableref/ledger"
)

// gwStatus is the part of "campaign status" these tests read.
type gwStatus struct {
	State struct {
		Turn         int
		Gold         map[string]int
		RulesVersion int `json:"rules_version"`
		IncomeTurn   int `json:"income_turn"`
		Winner       string
		WonTurn      int `json:"won_turn"`
		Warnings     []string
		Options      struct {
			BattleForTheBones bool     `json:"battle_for_the_bones"`
			Harvesters        []string `json:"harvesters"`
		}
	}
}

func statusOf(t *testing.T, db, name string) gwStatus {
	t.Helper()
	var st gwStatus
	if err := json.Unmarshal([]byte(mustCLI(t, db, "", "status", "--campaign", name)), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// setupEventOf returns the setup event a campaign recorded, compact (as
// stored).
func setupEventOf(t *testing.T, db, name string) string {
	t.Helper()
	var h struct {
		Events []struct{ Event json.RawMessage }
	}
	if err := json.Unmarshal([]byte(mustCLI(t, db, "", "history", "--campaign", name)), &h); err != nil || len(h.Events) == 0 {
		t.Fatalf("history of %s: %v", name, err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, h.Events[0].Event); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// gwSetupEvent is a Great War setup event as a --setup file gives it:
// two players, an extra harvester, no rules version.
const gwSetupEvent = `{"kind": "setup", "players": [{"name": "kate", "faction": "knights"}, {"name": "oscar", "faction": "orcs", "gold": 2}], "options": {"harvesters": ["Militia"]}}`

// TestNewGreatWarCampaignPlaysUnderTheCurrentRules: a campaign started
// from a layout or from a setup file without "rules_version" is played
// under greatwar.CurrentRules; a file naming a version keeps it.
func TestNewGreatWarCampaignPlaysUnderTheCurrentRules(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"from a layout of the homelands", []string{gwSetup}, greatwar.CurrentRules},
		{"from a setup file without rules_version", []string{"--setup", writeFile(t, "setup.json", gwSetupEvent)}, greatwar.CurrentRules},
		{"from a setup file naming rules_version 0", []string{"--setup", writeFile(t, "old.json", strings.Replace(gwSetupEvent, `{"kind"`, `{"rules_version": 0, "kind"`, 1))}, greatwar.RulesOriginal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "c.db")
			mustCLI(t, db, "", append([]string{"new", "--campaign", "war", "--rules", "greatwar"}, c.args...)...)
			if got := statusOf(t, db, "war").State.RulesVersion; got != c.want {
				t.Errorf("rules_version: got %d, want %d", got, c.want)
			}
		})
	}
	t.Run("a setup file keeps its other fields", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "c.db")
		mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", "--setup", writeFile(t, "setup.json", gwSetupEvent))
		want := `{"rules_version":` + strconv.Itoa(greatwar.CurrentRules) + `,"kind":"setup","players":[{"name":"kate","faction":"knights"},{"name":"oscar","faction":"orcs","gold":2}],"options":{"harvesters":["Militia"]}}`
		if got := setupEventOf(t, db, "war"); got != want {
			t.Errorf("stored setup event:\ngot  %s\nwant %s", got, want)
		}
	})
	t.Run("a rules version this tableref does not know is refused", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "c.db")
		setup := writeFile(t, "future.json", strings.Replace(gwSetupEvent, `{"kind"`, `{"rules_version": 99, "kind"`, 1))
		if code, _, errs := campaignCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", "--setup", setup); code == 0 || !strings.Contains(errs, "rules_version 99") {
			t.Errorf("got exit %d, %s; want a refusal of rules_version 99", code, errs)
		}
	})
	t.Run("an Esfah setup file is unchanged", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "c.db")
		setup := writeFile(t, "esfah.json", `{"kind":"setup","players":["x","y"],"total_health":120}`)
		mustCLI(t, db, "", "new", "--campaign", "e", "--rules", "esfah", "--setup", setup)
		if got := setupEventOf(t, db, "e"); got != `{"kind":"setup","players":["x","y"],"total_health":120}` {
			t.Errorf("stored setup event: got %s, want the file's", got)
		}
	})
}

// TestCampaignNewSetupFileTakesBones: --bones turns the Battle for the
// Bones on for a campaign given by --setup as it does for one given by a
// layout, keeping the file's other options; a file that turns it off
// explicitly contradicts the flag and is refused.
func TestCampaignNewSetupFileTakesBones(t *testing.T) {
	cases := []struct {
		name       string
		setup      string
		harvesters string
	}{
		{"a file with options", gwSetupEvent, "Militia"},
		{"a file without options", strings.Replace(gwSetupEvent, `, "options": {"harvesters": ["Militia"]}`, "", 1), ""},
		{"a file with null options", strings.Replace(gwSetupEvent, `{"harvesters": ["Militia"]}`, "null", 1), ""},
		{"a file that already asks for the bones", strings.Replace(gwSetupEvent, `{"harvesters"`, `{"battle_for_the_bones": true, "harvesters"`, 1), "Militia"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "c.db")
			mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", "--bones", "--setup", writeFile(t, "setup.json", c.setup))
			opt := statusOf(t, db, "war").State.Options
			if !opt.BattleForTheBones || strings.Join(opt.Harvesters, ",") != c.harvesters {
				t.Errorf("options: got %+v, want the Battle for the Bones and harvesters %q", opt, c.harvesters)
			}
		})
	}
	t.Run("a file that turns the bones off is refused", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "c.db")
		setup := writeFile(t, "off.json", strings.Replace(gwSetupEvent, `{"harvesters"`, `{"battle_for_the_bones": false, "harvesters"`, 1))
		if code, _, errs := campaignCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", "--bones", "--setup", setup); code != 2 || !strings.Contains(errs, "battle_for_the_bones") {
			t.Errorf("got exit %d, %s; want a usage error naming battle_for_the_bones", code, errs)
		}
		if out := mustCLI(t, db, "", "list"); strings.Contains(out, `"war"`) {
			t.Errorf("the refused setup created the campaign: %s", out)
		}
	})
	t.Run("--bones for Esfah is refused", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "c.db")
		if code, _, errs := campaignCLI(t, db, "", "new", "--campaign", "e", "--rules", "esfah", "--bones", "--players", "x,y", "--health", "120"); code != 2 || !strings.Contains(errs, "--bones") {
			t.Errorf("got exit %d, %s; want a usage error naming --bones", code, errs)
		}
	})
}

// withoutDisk writes a copy of a layout without the disk id.
func withoutDisk(t *testing.T, path, id string) string {
	t.Helper()
	return editLayout(t, path, func(disks []map[string]any) []map[string]any {
		var out []map[string]any
		for _, d := range disks {
			if d["id"] != id {
				out = append(out, d)
			}
		}
		return out
	})
}

// editLayout writes a copy of a layout whose disks edit changed.
func editLayout(t *testing.T, path string, edit func([]map[string]any) []map[string]any) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var l map[string]any
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	var disks []map[string]any
	raw, _ := json.Marshal(l["disks"])
	json.Unmarshal(raw, &disks)
	l["disks"] = edit(disks)
	out, _ := json.Marshal(l)
	return writeFile(t, "edited.json", string(out))
}

// TestCampaignEndTurnRefusesATableWithoutAPlayersHomeland: "each homeland
// automatically generates an income of 1 Gold per turn" (seed 000), so a
// table that lacks a player's homeland (eli's "he" here) cannot end the
// turn: read from it, eli would collect nothing and the turn's income could
// not be collected again. Nothing is recorded.
func TestCampaignEndTurnRefusesATableWithoutAPlayersHomeland(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	noEli := withoutDisk(t, gwTurn1, "he")
	for _, args := range [][]string{
		{"end-turn", "--campaign", "war", "--yes", noEli},
		{"end-turn", "--campaign", "war", noEli},
		{"income", "--campaign", "war", noEli},
	} {
		code, out, errs := campaignCLI(t, db, "", args...)
		if code == 0 || !strings.Contains(errs, "no homeland of eli") {
			t.Errorf("%v: got exit %d, %s%s; want a refusal naming eli's homeland", args, code, out, errs)
		}
	}
	if st := statusOf(t, db, "war").State; st.Turn != 1 || st.IncomeTurn != 0 {
		t.Errorf("after the refusals: got turn %d, income turn %d; want turn 1, no income", st.Turn, st.IncomeTurn)
	}
	if out := mustCLI(t, db, "", "history", "--campaign", "war"); strings.Count(out, `"seq"`) != 1 {
		t.Errorf("the refused end-turn recorded events: %s", out)
	}
	mustCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1)
	if st := statusOf(t, db, "war").State; st.Gold["eli"] != 3 {
		t.Errorf("the turn ended from the whole table: eli got %d gold, want 3", st.Gold["eli"])
	}
}

// TestCampaignEndTurnTakesATableWithoutAConqueredHomeland: a homeland
// already conquered yields its player nothing more ("if a homeland is
// conquered, the income is not generated"), so the table may lack it.
func TestCampaignEndTurnTakesATableWithoutAConqueredHomeland(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	mustCLI(t, db, `{"kind":"conquest","homeland":"eli","by":"oscar"}`, "record", "--campaign", "war", "-")
	noEli := withoutDisk(t, gwTurn1, "he")
	if code, out, errs := campaignCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", noEli); code != 0 {
		t.Fatalf("got exit %d, %s%s; want the turn ended without eli's conquered homeland", code, out, errs)
	}
	if st := statusOf(t, db, "war").State; st.Turn != 2 || st.Gold["eli"] != 0 {
		t.Errorf("got turn %d, eli's gold %d; want turn 2, eli 0", st.Turn, st.Gold["eli"])
	}
}

// TestCampaignEndTurnRefusesAHomelandOfNoPlayer: a homeland whose owner
// plays no part in the campaign is refused too (the rules would refuse his
// income).
func TestCampaignEndTurnRefusesAHomelandOfNoPlayer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	zed := editLayout(t, gwTurn1, func(disks []map[string]any) []map[string]any {
		return append(disks, map[string]any{"id": "hz", "kind": "terrain", "terrain": "homeland", "owner": "zed", "faction": "dwarves", "x": 90, "y": 110, "r": 6})
	})
	code, _, errs := campaignCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", zed)
	if code == 0 || !strings.Contains(errs, "zed (hz)") {
		t.Errorf("got exit %d, %s; want a refusal naming zed's homeland hz", code, errs)
	}
	if out := mustCLI(t, db, "", "history", "--campaign", "war"); strings.Count(out, `"seq"`) != 1 {
		t.Errorf("the refused end-turn recorded events: %s", out)
	}
}

// TestCampaignIncomeTakesTheCampaignsFactions: the income of a campaign's
// table uses the factions and alignments the campaign was set up with,
// not the ones a homeland disk gives: eli's Elves harvest the forest for 2
// gold, even when the disk says dwarves.
func TestCampaignIncomeTakesTheCampaignsFactions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	dwarves := editLayout(t, gwTurn1, func(disks []map[string]any) []map[string]any {
		for _, d := range disks {
			if d["id"] == "he" {
				d["faction"] = "dwarves"
			}
		}
		return disks
	})
	var got struct {
		Income map[string]int
		Notes  []string
	}
	json.Unmarshal([]byte(mustCLI(t, db, "", "income", "--campaign", "war", dwarves)), &got)
	if want := map[string]int{"kate": 0, "eli": 3, "oscar": 3, "ursula": 3}; !equalMaps(got.Income, want) {
		t.Errorf("income: got %v, want %v", got.Income, want)
	}
	if !strings.Contains(strings.Join(got.Notes, "\n"), "dwarves") {
		t.Errorf("notes: got %q, want one saying the table's dwarves were not used", got.Notes)
	}
}

// TestCampaignEndTurnAfterUndoRecordsNoSecondIncome: after the end-turn
// event is undone, ending turn 1 again from the same table records the
// end of the turn without a second income (already recorded), as the UI
// does, and says so.
func TestCampaignEndTurnAfterUndoRecordsNoSecondIncome(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	mustCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1)
	mustCLI(t, db, "", "undo", "--campaign", "war")
	if out := mustCLI(t, db, "", "end-turn", "--campaign", "war", gwTurn1); !strings.Contains(out, "already recorded") {
		t.Errorf("the proposal should say the income is already recorded:\n%s", out)
	}
	code, out, errs := campaignCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1)
	if code != 0 {
		t.Fatalf("end-turn --yes after undo: exit %d: %s", code, errs)
	}
	var got struct {
		Recorded []struct{ Kind string }
		Notes    []string
	}
	json.Unmarshal([]byte(out), &got)
	if len(got.Recorded) != 1 || got.Recorded[0].Kind != "end-turn" {
		t.Errorf("recorded: got %+v, want the end-turn alone", got.Recorded)
	}
	if !strings.Contains(strings.Join(got.Notes, "\n"), "already recorded") {
		t.Errorf("output: got %s, want a note that the income was already recorded", out)
	}
	if st := statusOf(t, db, "war").State; st.Turn != 2 || !equalMaps(st.Gold, map[string]int{"kate": 0, "eli": 3, "oscar": 3, "ursula": 3}) {
		t.Errorf("after it: got turn %d gold %v, want turn 2 and the turn-1 income once", st.Turn, st.Gold)
	}
}

// TestCampaignEndTurnRefusesAStaleProposal: end-turn --yes works out the
// end of turn 1 from its reading of the campaign; another process ends
// turn 1 before it records (here between the two steps, on another
// handle of the same file). The proposal is refused, nothing of it is
// recorded, and the campaign stays in turn 2, where recording it would
// have ended turn 2 as well with turn 1's conquest and income.
func TestCampaignEndTurnRefusesAStaleProposal(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	store, err := ledger.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var out bytes.Buffer
	c := &campaignCtx{env: &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out}, name: "war", store: store}
	p, err := c.propose(gwTurn1)
	if err != nil {
		t.Fatal(err)
	}
	if p.from.Turn != 1 || len(p.Captures) != 1 {
		t.Fatalf("the proposal: got turn %d, captures %+v; want turn 1 and kate's homeland taken", p.from.Turn, p.Captures)
	}
	mustCLI(t, db, "", "end-turn", "--campaign", "war") // the other process
	err = c.recordTurnEnd("war", p)
	if !errors.Is(err, errStaleProposal) || !strings.Contains(err.Error(), "propose again") {
		t.Errorf("recording the stale proposal: got %v, want %q ... propose again", err, errStaleProposal)
	}
	if st := statusOf(t, db, "war").State; st.Turn != 2 || st.IncomeTurn != 0 || st.Gold["ursula"] != 0 {
		t.Errorf("after the refusal: got turn %d, income turn %d, ursula's gold %d; want turn 2, no income, 0", st.Turn, st.IncomeTurn, st.Gold["ursula"])
	}
	if h := mustCLI(t, db, "", "history", "--campaign", "war"); strings.Count(h, `"seq"`) != 2 {
		t.Errorf("the refused proposal recorded events: %s", h)
	}
	// Worked out again, from turn 2, it is recorded.
	if p, err = c.propose(gwTurn1); err != nil {
		t.Fatal(err)
	}
	if err := c.recordTurnEnd("war", p); err != nil {
		t.Errorf("the proposal made again: %v", err)
	}
	if st := statusOf(t, db, "war").State; st.Turn != 3 || st.IncomeTurn != 2 {
		t.Errorf("after it: got turn %d, income turn %d; want 3, 2", st.Turn, st.IncomeTurn)
	}
}

// TestCampaignStatusShowsTheWinnerAndTheWarnings: "It is the objective of
// the game to conquer the homlands of all enemy factions" (The Great War,
// The Set-Up): once the last enemy homeland is conquered, "campaign
// status" names the winning alignment. A campaign of rules version 1 that
// buys a third Catapult as "Catapults" ("the Knights player may only have
// 2 Catapults in play", Some further restrictions) keeps the purchase, and
// the status warns of it.
func TestCampaignStatusShowsTheWinnerAndTheWarnings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", "--setup", writeFile(t, "setup.json", gwSetupEvent))
	mustCLI(t, db, `{"kind":"conquest","homeland":"kate","by":"oscar"}`, "record", "--campaign", "war", "-")
	if st := statusOf(t, db, "war").State; st.Winner != "evil" || st.WonTurn != 1 {
		t.Errorf("got winner %q in turn %d, want evil in turn 1", st.Winner, st.WonTurn)
	}
	old := `{"rules_version": 1, "kind": "setup", "players": [{"name": "kate", "faction": "knights", "gold": 5, "army": [{"name": "Catapult", "cost": 1, "faction": "knights"}, {"name": "Catapult", "cost": 1, "faction": "knights"}]}, {"name": "oscar", "faction": "orcs"}]}`
	mustCLI(t, db, "", "new", "--campaign", "old", "--rules", "greatwar", "--setup", writeFile(t, "old.json", old))
	mustCLI(t, db, `{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Catapults","cost":1,"faction":"knights"}]}]}`, "record", "--campaign", "old", "-")
	if st := statusOf(t, db, "old").State; len(st.Warnings) != 1 || !strings.Contains(st.Warnings[0], "2 Catapults") {
		t.Errorf("got warnings %q, want one about the Knights' 2 Catapults", st.Warnings)
	}
}
