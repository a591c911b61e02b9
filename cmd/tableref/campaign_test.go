package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"tableref/models"
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

// checkIncomeShape checks the output of "campaign income" has the form of
// issue 8 item 4: {"income": {"<owner>": gold, ...}, "sources":
// [{"player": ..., "source": ..., "gold": ...}]} (extra fields allowed),
// and returns the income.
func checkIncomeShape(t *testing.T, out string) map[string]int {
	t.Helper()
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatalf("income output is not a JSON object: %v\n%s", err, out)
	}
	var income map[string]int
	if err := json.Unmarshal(top["income"], &income); err != nil || income == nil {
		t.Fatalf(`"income": got %s, want an object of owner: gold (%v)`, top["income"], err)
	}
	var sources []map[string]json.RawMessage
	if err := json.Unmarshal(top["sources"], &sources); err != nil || sources == nil {
		t.Fatalf(`"sources": got %s, want an array (%v)`, top["sources"], err)
	}
	sum := map[string]int{}
	for i, s := range sources {
		var player, source string
		var gold int
		if json.Unmarshal(s["player"], &player) != nil || json.Unmarshal(s["source"], &source) != nil || json.Unmarshal(s["gold"], &gold) != nil || player == "" || source == "" {
			t.Errorf("sources[%d]: got %v, want player and source strings and gold a number", i, s)
		}
		sum[player] += gold
	}
	for p, g := range income {
		if sum[p] != g {
			t.Errorf("%s: income %d but sources add up to %d", p, g, sum[p])
		}
	}
	return income
}

// TestIncomeCommandForms: the issue's form "campaign income --rules
// greatwar LAYOUT.json --campaign DB" (a database file) gives what "--campaign
// NAME --db DB" gives, before and after a turn is recorded through the
// file form.
func TestIncomeCommandForms(t *testing.T) {
	db := filepath.Join(t.TempDir(), "war.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	run := func(args ...string) string {
		t.Helper()
		code, out, errs := runCLI(t, "", append([]string{"campaign"}, args...)...)
		if code != 0 {
			t.Fatalf("campaign %v: exit %d: %s", args, code, errs)
		}
		return out
	}
	noCampaign := run("income", "--rules", "greatwar", gwTurn1)
	byFile := run("income", "--rules", "greatwar", gwTurn1, "--campaign", db)
	byName := run("income", "--rules", "greatwar", "--campaign", "war", "--db", db, gwTurn1)
	if byFile != byName || byFile != noCampaign {
		t.Errorf("turn 1: the forms differ:\n--campaign DB:\n%s\n--campaign NAME --db DB:\n%s\nno campaign:\n%s", byFile, byName, noCampaign)
	}
	want := map[string]int{"kate": 0, "eli": 3, "oscar": 3, "ursula": 3}
	if got := checkIncomeShape(t, byFile); !equalMaps(got, want) {
		t.Errorf("turn 1 through --campaign DB: got %v, want %v", got, want)
	}
	run("end-turn", "--campaign", db, "--yes", gwTurn1)
	byFile = run("income", "--rules", "greatwar", gwTurn1, "--campaign", db)
	byName = run("income", "--rules", "greatwar", "--campaign", "war", "--db", db, gwTurn1)
	if byFile != byName {
		t.Errorf("turn 2: the forms differ:\n%s\n%s", byFile, byName)
	}
	if byFile == noCampaign || strings.Contains(byFile, `"by": "ursula"`) {
		t.Errorf("turn 2: the conquest recorded in turn 1 should be known through --campaign DB (no new capture):\n%s", byFile)
	}
	checkIncomeShape(t, byFile)
}

func TestCampaignFileFormChoosesTheCampaign(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "two.sqlite")
	cli := func(stdin string, args ...string) (int, string, string) {
		return runCLI(t, stdin, append([]string{"campaign"}, args...)...)
	}
	if code, _, errs := cli("", "new", "--campaign", db, "--name", "a", "--rules", "esfah", "--players", "x,y", "--health", "120"); code != 0 {
		t.Fatalf("new --campaign FILE --name a: exit %d: %s", code, errs)
	}
	if code, out, errs := cli("", "status", "--campaign", db); code != 0 || !strings.Contains(out, `"name": "a"`) {
		t.Errorf("status of the only campaign of the file: exit %d, %s%s", code, out, errs)
	}
	if code, _, errs := cli("", "new", "--campaign", db, "--name", "b", "--rules", "esfah", "--players", "x,y", "--health", "180"); code != 0 {
		t.Fatalf("new --campaign FILE --name b: exit %d: %s", code, errs)
	}
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"two campaigns, none chosen", []string{"status", "--campaign", db}, 2, "holds 2 campaigns (a, b): choose one with --name"},
		{"two campaigns, one chosen", []string{"status", "--campaign", db, "--name", "b"}, 0, `"total_health": 180`},
		{"new without a name", []string{"new", "--campaign", db, "--rules", "esfah", "--players", "x,y", "--health", "120"}, 2, "--name NAME"},
		{"a missing file", []string{"status", "--campaign", filepath.Join(dir, "none.db")}, 1, "no campaign database there"},
		{"two files", []string{"status", "--campaign", db, "--db", filepath.Join(dir, "other.db")}, 2, "give the file once"},
		{"a name and --name", []string{"status", "--campaign", "a", "--name", "b", "--db", db}, 2, "give one name"},
		{"--name alone with --db", []string{"status", "--name", "b", "--db", db}, 0, `"total_health": 180`},
		{"list", []string{"list", "--campaign", db}, 0, `"name": "b"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, errs := cli("", c.args...)
			if code != c.code || !strings.Contains(out+errs, c.want) {
				t.Errorf("got exit %d, %s%s; want exit %d and %q", code, out, errs, c.code, c.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "none.db")); err == nil {
		t.Error("a read of a missing database file created it")
	}
	export := mustCLI(t, db, "", "export", "--campaign", "b")
	other := filepath.Join(dir, "copy.db")
	if code, out, errs := cli(export, "import", "--campaign", other, "-"); code != 0 || !strings.Contains(out, `"name": "b"`) {
		t.Errorf("import into --campaign FILE: exit %d, %s%s", code, out, errs)
	}
}

// TestLooksLikeDBFile: the values of --campaign read as a database file.
func TestLooksLikeDBFile(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("campaigns", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir("war", 0o755)
	cases := []struct {
		in   string
		want bool
	}{
		{"war", false}, // a directory is not a database file
		{"summer", false},
		{"campaigns", true}, // an existing file
		{"war.db", true},
		{"war.SQLite", true},
		{"war.sqlite3", true},
		{"data/war", true},
		{"./war", true},
		{"", false},
	}
	for _, c := range cases {
		if got := looksLikeDBFile(c.in); got != c.want {
			t.Errorf("looksLikeDBFile(%q): got %v, want %v", c.in, got, c.want)
		}
	}
}

// TestRecruitCommandOutputShape: "campaign recruit --rules esfah ARMY.json"
// with the input of issue 8 item 4 prints {"recruit": {"<race>": health}}
// (../shared/seeds/002_2b784673a7311b3b.txt, section 7: Vagha 6, Mohrel
// 10, Firewalkers 3 in the highlands).
func TestRecruitCommandOutputShape(t *testing.T) {
	army := `{"terrain": "highland", "units": [{"race": "vagha", "health": 12}, {"race": "mohrel", "health": 17}, {"race": "firewalker", "health": 11}], "items_health": 4, "dragons": 1, "dragonkin_health": 0}`
	dir := t.TempDir()
	path := filepath.Join(dir, "army.json")
	os.WriteFile(path, []byte(army), 0o644)
	for _, args := range [][]string{
		{"campaign", "recruit", "--rules", "esfah", path},
		{"campaign", "recruit", "--rules", "esfah", "-"},
	} {
		code, out, errs := runCLI(t, army, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal([]byte(out), &top); err != nil {
			t.Fatal(err)
		}
		var got map[string]int
		if err := json.Unmarshal(top["recruit"], &got); err != nil || got == nil {
			t.Fatalf(`"recruit": got %s, want an object of race: health (%v)`, top["recruit"], err)
		}
		if want := map[string]int{"vagha": 6, "mohrel": 10, "firewalker": 3}; !equalMaps(got, want) {
			t.Errorf("%v: got %v, want %v", args, got, want)
		}
	}
}

// TestExportRefusesTheDatabase: "export -o" naming the open database (by
// another spelling, or its -wal file) is refused and leaves the database
// whole; an export to another file replaces it whole.
func TestExportRefusesTheDatabase(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "y.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	before := mustCLI(t, db, "", "export", "--campaign", "war")
	cases := []struct {
		name string
		out  string
	}{
		{"the database itself", db},
		{"the database through another path", filepath.Join(dir, ".", "..", filepath.Base(dir), "y.db")},
		{"its -wal file", db + "-wal"},
		{"its -shm file", db + "-shm"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := campaignCLI(t, db, "", "export", "--campaign", "war", "-o", c.out)
			if code != 2 || !strings.Contains(errs, "is the campaign database") {
				t.Errorf("got exit %d, stderr %q; want exit 2 and \"is the campaign database\"", code, errs)
			}
			if got := mustCLI(t, db, "", "export", "--campaign", "war"); got != before {
				t.Errorf("the refused export changed the campaign:\n%s", got)
			}
		})
	}
	out := filepath.Join(dir, "war.json")
	os.WriteFile(out, []byte(strings.Repeat("old export ", 1000)), 0o644)
	mustCLI(t, db, "", "export", "--campaign", "war", "-o", out)
	if got, _ := os.ReadFile(out); string(got) != before {
		t.Errorf("export -o: got %d bytes, want the %d of the export", len(got), len(before))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) != 0 {
		t.Errorf("export -o left temporary files: %v", left)
	}
}

// TestRefusedSetupLeavesNoCampaign: a setup event the store refuses (here
// for a field the rules do not know) leaves no empty campaign behind, so
// the same name can be used again.
func TestRefusedSetupLeavesNoCampaign(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	cases := []struct {
		name  string
		setup string
		code  int
		want  string
	}{
		{"a setup with an unknown field", `{"kind":"setup","players":["x","y"],"total_health":120,"bogus":1}`, 1, "unknown field"},
		{"the same setup without it", `{"kind":"setup","players":["x","y"],"total_health":120}`, 0, `"created": "esfah"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			setup := filepath.Join(dir, "setup.json")
			os.WriteFile(setup, []byte(c.setup), 0o644)
			code, out, errs := campaignCLI(t, db, "", "new", "--campaign", "esfah", "--rules", "esfah", "--setup", setup)
			if code != c.code || !strings.Contains(out+errs, c.want) {
				t.Errorf("got exit %d, %s%s; want exit %d and %q", code, out, errs, c.code, c.want)
			}
		})
	}
	if out := mustCLI(t, db, "", "history", "--campaign", "esfah"); strings.Count(out, `"seq"`) != 1 {
		t.Errorf("want the campaign with its one setup event, got %s", out)
	}
}

// TestStartingArmyLeavesOutTheFreeGuards: the setup event gives the
// Undead player "2 free Undead Horde and 2 free Skeleton Archers"
// (source), so the guards marked homeland-guard on the table are not
// listed in his army as well (which made 4 of each).
func TestStartingArmyLeavesOutTheFreeGuards(t *testing.T) {
	guard := func(id, name string) models.Disk {
		return models.Disk{ID: id, Name: name, Kind: models.KindCreature, Owner: "ned", Faction: "undead", Keywords: []string{"homeland-guard"}}
	}
	l := models.Layout{Disks: []models.Disk{
		{ID: "n1", Name: "Undead Horde", Kind: models.KindCreature, Owner: "ned", Faction: "undead"},
		guard("g1", "Undead Horde"), guard("g2", "Undead Horde"),
		guard("g3", "Skeleton Archers"), guard("g4", "Skeleton Archers"),
	}}
	got := startingArmy(l, "ned")
	if len(got) != 1 || got[0].Name != "Undead Horde" {
		t.Errorf("got army %+v, want only the Undead Horde n1 (the guards come free with the setup event)", got)
	}
}

// TestEsfahNewTrimsPlayerNames: "--players "chris, dana"" names dana, not
// " dana"; an empty name is refused.
func TestEsfahNewTrimsPlayerNames(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	var got struct{ State struct{ Players []string } }
	json.Unmarshal([]byte(mustCLI(t, db, "", "new", "--campaign", "e", "--rules", "esfah", "--players", "chris, dana", "--health", "120")), &got)
	if want := []string{"chris", "dana"}; strings.Join(got.State.Players, "|") != strings.Join(want, "|") {
		t.Errorf("players: got %q, want %q", got.State.Players, want)
	}
	for i, players := range []string{"chris,,dana", "chris, ", " , dana"} {
		name := fmt.Sprintf("bad%d", i)
		if code, _, errs := campaignCLI(t, db, "", "new", "--campaign", name, "--rules", "esfah", "--players", players, "--health", "120"); code == 0 || !strings.Contains(errs, "empty") {
			t.Errorf("--players %q: got exit %d, %s; want a refusal naming the empty name", players, code, errs)
		}
	}
}

func TestSplitNames(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		ok   bool
	}{
		{"kate,eli", []string{"kate", "eli"}, true},
		{" kate , eli ", []string{"kate", "eli"}, true},
		{"", nil, true},
		{"kate,,eli", nil, false},
		{"kate, ", nil, false},
	}
	for _, c := range cases {
		got, err := splitNames("--bidders", c.in)
		if (err == nil) != c.ok || strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("splitNames(%q): got %q (%v), want %q ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestRecruitCommandRefusesTrailingData: an army followed by anything but
// white space is refused, as the ledger refuses an event with trailing
// data, rather than reading the first object alone.
func TestRecruitCommandRefusesTrailingData(t *testing.T) {
	army := `{"terrain":"highland","units":[{"race":"vagha","health":12}]}`
	for _, in := range []string{army + `{"terrain":"flatland","units":[]}`, army + ` x`, army + `]`} {
		code, out, errs := runCLI(t, in, "campaign", "recruit", "--rules", "esfah", "-")
		if code == 0 || !strings.Contains(errs, "trailing") {
			t.Errorf("%s: got exit %d, %s%s; want a refusal about trailing data", in, code, out, errs)
		}
	}
	if code, _, errs := runCLI(t, army+"\n\n", "campaign", "recruit", "--rules", "esfah", "-"); code != 0 {
		t.Errorf("an army and blank lines: exit %d: %s", code, errs)
	}
}

// TestRecruitCommandPrintsNoPerRaceHalfRate: the half rate is taken over
// all the points converted (source, section 7: 3 + 5 points give 4 Feral,
// not 2 + 3), so the output gives it for the pooled points only.
func TestRecruitCommandPrintsNoPerRaceHalfRate(t *testing.T) {
	code, out, errs := runCLI(t, "", "campaign", "recruit", "--rules", "esfah", "testdata/campaign/esfah_army.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &top); err != nil {
		t.Fatal(err)
	}
	if _, ok := top["half_rate"]; ok {
		t.Errorf("the output has a per-race \"half_rate\", whose figures add up to more than the points buy: %s", out)
	}
	var pooled int
	if err := json.Unmarshal(top["pooled_half_rate"], &pooled); err != nil || pooled != 10 {
		t.Errorf("pooled_half_rate: got %s, want 10 (6 + 10 + 3 = 19 points, halved and rounded up)", top["pooled_half_rate"])
	}
}

// legacyEsfah is a campaign as older versions recorded it, before the
// rules refused: a padded player name, natives changing the text's table
// and giving a race two terrains, a capture with no player taking a
// terrain from its holder, a half rate
// rounded up per conversion (2 + 3 Feral from 3 and 5 points), Vagha
// doubled at a coastland by the changed table.
const legacyEsfah = `{"format":"tableref-campaign","version":1,"name":"old","rules":"esfah","events":[
{"seq":1,"event":{"kind":"setup","players":["chris"," dana"],"total_health":120,"natives":{"vagha":"coastland","Dwarves":"highland","dwarves":"flatland"}}},
{"seq":2,"event":{"kind":"end-turn"}},{"seq":3,"event":{"kind":"end-turn"}},{"seq":4,"event":{"kind":"end-turn"}},
{"seq":5,"event":{"kind":"end-turn"}},{"seq":6,"event":{"kind":"end-turn"}},
{"seq":7,"event":{"kind":"expand","terrain":"T1"}},
{"seq":8,"event":{"kind":"capture","player":"chris","terrain":"T1"}},
{"seq":9,"event":{"kind":"capture","terrain":"T1"}},
{"seq":10,"event":{"kind":"recruit","player":"chris","army":"horde","forces":{"terrain":"flatland","units":[{"race":"vagha","health":12},{"race":"mohrel","health":17}]},
 "spend":{"converted":[{"from":{"vagha":3},"race":"feral","health":2},{"from":{"mohrel":5},"race":"feral","health":3}]}}},
{"seq":11,"event":{"kind":"recruit","player":"chris","army":"coast","forces":{"terrain":"coastland","units":[{"race":"vagha","health":8}]},"spend":{"own":{"vagha":4}}}},
{"seq":12,"event":{"kind":"recruit","player":" dana","army":"dwarves","forces":{"terrain":"highland","units":[{"race":"dwarves","health":8}]},"spend":{"own":{"dwarves":4}}}}
]}`

// TestOldEsfahLedgerStillReplays: events older versions recorded replay
// with a warning each in the state, while the same events are refused
// when recorded now.
func TestOldEsfahLedgerStillReplays(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, legacyEsfah, "import", "-")
	var st struct {
		State struct {
			Pool     map[string]int
			Holder   map[string]string
			Warnings []string
		}
	}
	if err := json.Unmarshal([]byte(mustCLI(t, db, "", "status", "--campaign", "old")), &st); err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"chris": 60 - 5 - 4, " dana": 60 - 4}; !equalMaps(st.State.Pool, want) {
		t.Errorf("pools: got %v, want %v", st.State.Pool, want)
	}
	if len(st.State.Warnings) != 6 {
		t.Errorf("warnings: got %d, want 6 (natives and a name at setup, capture, three recruits):\n%s", len(st.State.Warnings), strings.Join(st.State.Warnings, "\n"))
	}
	for _, ev := range []string{
		`{"kind":"capture","terrain":"T1"}`,
		`{"kind":"recruit","player":"chris","army":"other","forces":{"terrain":"flatland","units":[{"race":"vagha","health":12},{"race":"mohrel","health":17}]},"spend":{"converted":[{"from":{"vagha":3},"race":"feral","health":2},{"from":{"mohrel":5},"race":"feral","health":3}]}}`,
		`{"kind":"recruit","player":"chris","army":"coast2","forces":{"terrain":"coastland","units":[{"race":"vagha","health":8}]},"spend":{"own":{"vagha":4}}}`,
	} {
		if code, _, errs := campaignCLI(t, db, ev, "record", "--campaign", "old", "-"); code == 0 {
			t.Errorf("recording %s now: got exit 0, want a refusal", ev)
		} else if strings.Contains(errs, "corrupt") {
			t.Errorf("recording %s now: %s", ev, errs)
		}
	}
	// New events of the old campaign follow the text's table: Vagha are
	// native to the highlands.
	mustCLI(t, db, `{"kind":"recruit","player":"chris","army":"hill","forces":{"terrain":"highland","units":[{"race":"vagha","health":8}]},"spend":{"own":{"vagha":4}}}`, "record", "--campaign", "old", "-")
}
