package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func campaignCLI(t *testing.T, db, stdin string, args ...string) (int, string, string) {
	t.Helper()
	return runCLI(t, stdin, append([]string{"campaign"}, append(args, "--db", db)...)...)
}

func mustCLI(t *testing.T, db, stdin string, args ...string) string {
	t.Helper()
	code, out, errs := campaignCLI(t, db, stdin, args...)
	if code != 0 {
		t.Fatalf("campaign %v: exit %d: %s", args, code, errs)
	}
	return out
}

const (
	gwSetup = "testdata/campaign/greatwar_setup.json"
	gwTurn1 = "testdata/campaign/greatwar_turn1.json"
)

// TestGreatWarCampaignOverSeveralSessions plays a Great War campaign
// through the CLI: set up from a table, a turn ended from the live table,
// purchases, a transfer, undo, then export and import into another
// database.
func TestGreatWarCampaignOverSeveralSessions(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	var inc struct {
		Income  map[string]int
		Sources []struct {
			Player, Source string
			Gold           int
		}
	}
	out := mustCLI(t, db, "", "income", "--rules", "greatwar", gwTurn1)
	if err := json.Unmarshal([]byte(out), &inc); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"kate": 0, "eli": 3, "oscar": 3, "ursula": 3}
	if !equalMaps(inc.Income, want) {
		t.Errorf("income of turn 1 (Uthuk on the Knights' homeland, Elves and Peasants in the forest, Grugs on the lake): got %v, want %v", inc.Income, want)
	}
	if !strings.Contains(mustCLI(t, db, "", "end-turn", "--campaign", "war", gwTurn1), "--yes") {
		t.Error("end-turn without --yes should only propose")
	}
	mustCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1)
	mustCLI(t, db, "", "buy", "--campaign", "war", "--player", "eli", "--unit", "Deepwood Warriors", "--cost", "2", "--faction", "elves")
	mustCLI(t, db, "", "transfer", "--campaign", "war", "--from", "oscar", "--to", "ursula", "--gold", "3")
	mustCLI(t, db, "", "transfer", "--campaign", "war", "--from", "ursula", "--to", "oscar", "--gold", "1")
	mustCLI(t, db, "", "undo", "--campaign", "war")
	var led struct {
		Ledger []struct {
			Balance  int
			Resource string
		}
	}
	json.Unmarshal([]byte(mustCLI(t, db, "", "ledger", "--campaign", "war", "--player", "ursula")), &led)
	last := -1
	for _, l := range led.Ledger {
		if l.Resource == "gold" {
			last = l.Balance
		}
	}
	if last != 3+3 {
		t.Errorf("ursula's gold after plunder 3, transfer 3, an undone transfer: got %d, want 6", last)
	}
	export := mustCLI(t, db, "", "export", "--campaign", "war")
	other := filepath.Join(t.TempDir(), "other.db")
	mustCLI(t, other, export, "import", "-")
	if got := mustCLI(t, other, "", "export", "--campaign", "war"); got != export {
		t.Errorf("export after import differs from the original export")
	}
	var st struct {
		State struct {
			Turn int
			Gold map[string]int
		}
	}
	json.Unmarshal([]byte(mustCLI(t, other, "", "status", "--campaign", "war")), &st)
	if st.State.Turn != 2 || st.State.Gold["eli"] != 1 {
		t.Errorf("status after import: got turn %d gold %v, want turn 2 and eli 1", st.State.Turn, st.State.Gold)
	}
}

func equalMaps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestRecruitCommandReproducesTheText: Chris's army in the highlands
// recruits Vagha 6, Mohrel 10, Firewalkers 3 (../shared/seeds/
// 002_2b784673a7311b3b.txt, section 7).
func TestRecruitCommandReproducesTheText(t *testing.T) {
	code, out, errs := runCLI(t, "", "campaign", "recruit", "--rules", "esfah", "testdata/campaign/esfah_army.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct{ Recruit map[string]int }
	json.Unmarshal([]byte(out), &got)
	if want := map[string]int{"vagha": 6, "mohrel": 10, "firewalker": 3}; !equalMaps(got.Recruit, want) {
		t.Errorf("got %v, want %v", got.Recruit, want)
	}
}

func TestCampaignBadInput(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	bad := filepath.Join(dir, "bad.json")
	data, _ := os.ReadFile(gwSetup)
	os.WriteFile(bad, []byte(strings.Replace(string(data), `"faction": "orcs"`, `"faction": "gnomes"`, 1)), 0o644)
	corrupt := filepath.Join(dir, "corrupt.db")
	os.WriteFile(corrupt, []byte(strings.Repeat("garbage ", 1000)), 0o644)
	cases := []struct {
		name string
		code int
		want string
		db   string
		args []string
	}{
		{"an unknown faction", 1, "unknown faction", db, []string{"new", "--campaign", "w2", "--rules", "greatwar", bad}},
		{"a purchase beyond the gold held", 1, "holds 0", db, []string{"buy", "--campaign", "war", "--player", "kate", "--unit", "Swordsmen", "--cost", "3", "--faction", "knights"}},
		{"a unique bought twice", 1, "already in the game", db, []string{"buy", "--campaign", "war", "--player", "eli", "--unit", "Ceryx Jade", "--cost", "0", "--unique"}},
		{"an unknown terrain", 1, "unknown terrain", db, []string{"recruit", "--rules", "esfah", "-"}},
		{"a corrupt database", 1, "corrupt", corrupt, []string{"list"}},
		{"a corrupt import", 1, "campaign file", db, []string{"import", "-"}},
		{"no subcommand", 2, "subcommand", db, nil},
		{"a missing campaign name", 2, "--campaign", db, []string{"status"}},
		{"an unknown campaign", 1, "no such campaign", db, []string{"status", "--campaign", "nope"}},
	}
	stdin := map[string]string{"an unknown terrain": `{"terrain":"desert","units":[{"race":"vagha","health":4}]}`, "a corrupt import": `{"format":"tableref-campaign","version":1,"events":[`}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := campaignCLI(t, c.db, stdin[c.name], c.args...)
			if code != c.code || !strings.Contains(errs, c.want) {
				t.Errorf("got exit %d, stderr %q; want exit %d and %q", code, errs, c.code, c.want)
			}
		})
	}
	code, out, _ := campaignCLI(t, db, "", "history", "--campaign", "war")
	if code != 0 || strings.Count(out, `"seq"`) != 1 {
		t.Errorf("the refused commands left events in the ledger: %s", out)
	}
}
