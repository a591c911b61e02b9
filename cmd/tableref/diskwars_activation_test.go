package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bookActivationTable writes the table of the example of "Ordre
// d'activation" (shared/seeds/004): Séverine, Stéphane and Pascal seated
// in that order, Pascal first, nine disks each, markers[p] of each
// player's disks already activated.
func bookActivationTable(t *testing.T, markers map[string]int) string {
	t.Helper()
	var disks []string
	prefix := map[string]string{"Séverine": "se", "Stéphane": "st", "Pascal": "pa"}
	for row, p := range []string{"Séverine", "Stéphane", "Pascal"} {
		for k := range 9 {
			disks = append(disks, fmt.Sprintf(`{"id": "%s%d", "owner": %q, "kind": "creature", "x": %d, "y": %d, "r": 2.5, "activated": %v,
 "stats": {"attack": 1, "defense": 1, "toughness": 2, "movement": 3}}`, prefix[p], k+1, p, 10*k, 20*row, k < markers[p]))
		}
	}
	body := `{"version": 1, "players": ["Séverine", "Stéphane", "Pascal"], "first_player": "Pascal", "disks": [` + strings.Join(disks, ",\n") + `]}`
	p := filepath.Join(t.TempDir(), "table.json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestActivationCommandBookExample plays the three-player example of
// "Ordre d'activation" (shared/seeds/004, "Déroulement de la partie")
// through tableref activation status.
func TestActivationCommandBookExample(t *testing.T) {
	start := bookActivationTable(t, nil)
	round3 := bookActivationTable(t, map[string]int{"Pascal": 9, "Séverine": 6, "Stéphane": 6})
	end := bookActivationTable(t, map[string]int{"Pascal": 9, "Séverine": 6, "Stéphane": 8})
	const twoRounds = "Pascal=3,Séverine=3,Stéphane=3,Pascal=3,Séverine=3,Stéphane=3"
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"the phase begins with Pascal", []string{"activation", "status", start}, 0,
			[]string{"Round 1: Pascal to play, up to 3 of 9 disks left.", "ends in round 3", "pa1        (Pascal) may be activated now",
				"se1        (Séverine) may be activated at Séverine's turn", "Next turn's first player: Séverine"}},
		{"round 3, Séverine to play", []string{"activation", "status", "--played", twoRounds + ",Pascal=3", round3}, 0,
			[]string{"Round 3: Séverine to play, up to 3 of 3 disks left.", "Pascal        0 left  ended: activated the last 3 disks in round 3",
				"pa9        (Pascal) may not: it has an activation marker; the activation phase of Pascal is over"}},
		{"Séverine passes, Stéphane activates two: over", []string{"activation", "status", "--played", twoRounds + ",Pascal=3,Séverine=0,Stéphane=2", end}, 0,
			[]string{"The activation phase is over", "Séverine      3 left  ended: activated 0 in round 3, fewer than three, with 3 left",
				"se9        (Séverine) may not: the activation phase of Séverine is over"}},
		{"out of turn", []string{"activation", "status", "--played", "Séverine=3", start}, 1, []string{"it is Pascal's turn, not Séverine's"}},
		{"a bad history", []string{"activation", "status", "--played", "Pascal=4", start}, 2, []string{"--played"}},
		{"no subcommand", []string{"activation", start}, 2, []string{"only activation subcommand is status"}},
		{"two layouts", []string{"activation", "status", start, end}, 2, []string{"exactly one layout"}},
		{"help", []string{"activation", "--help"}, 0, []string{"PLAYER=frozen"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runDiskwarsCLI(tc.args...)
			if code != tc.code {
				t.Errorf("got exit %d, want %d; output:\n%s%s", code, tc.code, out, errs)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errs, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errs)
				}
			}
		})
	}
}

func TestActivationCommandJSON(t *testing.T) {
	round3 := bookActivationTable(t, map[string]int{"Pascal": 9, "Séverine": 6, "Stéphane": 6})
	code, out, errs := runDiskwarsCLI("activation", "status", "--format", "json",
		"--played", "Pascal=3,Severine=3,Stephane=3,Pascal=3,Severine=3,Stephane=3,Pascal=3", round3)
	if code != 0 {
		t.Fatalf("got exit %d: %s", code, errs)
	}
	var st struct {
		Current         string `json:"current"`
		Round           int    `json:"round"`
		Over            bool   `json:"over"`
		NextFirstPlayer string `json:"next_first_player"`
		Disks           []struct {
			Disk string `json:"disk"`
			Now  bool   `json:"now"`
		} `json:"disks"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v in\n%s", err, out)
	}
	var now []string
	for _, d := range st.Disks {
		if d.Now {
			now = append(now, d.Disk)
		}
	}
	if st.Current != "Séverine" || st.Round != 3 || st.Over || st.NextFirstPlayer != "Séverine" || strings.Join(now, ",") != "se7,se8,se9" {
		t.Errorf("got current %q round %d over %v next %q now %v, want Séverine 3 false Séverine [se7 se8 se9]", st.Current, st.Round, st.Over, st.NextFirstPlayer, now)
	}
}
