package ledger

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
)

const crashEnv = "TABLEREF_LEDGER_CRASH_DB"

// TestCrashChild is the child process of TestCrashSafety: with the
// environment variable set it appends events to the campaign "war" for
// ever, printing each committed event's sequence number on stdout. Run
// normally it does nothing.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		return
	}
	s, err := Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	events := []string{
		`{"kind":"income","sources":[{"player":"kate","source":"homeland","gold":1},{"player":"eli","source":"homeland","gold":1},{"player":"oscar","source":"homeland","gold":2}]}`,
		`{"kind":"transfer","player":"kate","to":"eli","gold":1}`,
		`{"kind":"end-turn"}`,
	}
	recs, err := s.Events("war")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	for i := len(recs) - 1; ; i++ { // event 1 is the setup
		r, err := s.Append("war", json.RawMessage(events[i%len(events)]))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		fmt.Println(r.Seq)
	}
}

// TestCrashSafety kills a writing process with SIGKILL, several times,
// and checks on reopening that every event the child reported committed
// is there with all its effect rows, that no event is half-written, and
// that the state still replays.
func TestCrashSafety(t *testing.T) {
	path := filepath.Join(t.TempDir(), "crash.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	s.Close()
	wantEffects := map[string]int{"income": 3, "transfer": 2, "end-turn": 0}
	committed := map[int]bool{1: true}
	for round := range 3 {
		for _, seq := range runAndKill(t, path, 15+10*round) {
			committed[seq] = true
		}
		s, err := Open(path)
		if err != nil {
			t.Fatalf("reopen after kill %d: %v", round+1, err)
		}
		recs, err := s.Events("war")
		if err != nil {
			t.Fatal(err)
		}
		have := map[int]bool{}
		for _, r := range recs {
			have[r.Seq] = true
			if n, ok := wantEffects[r.Kind]; ok && len(r.Effects) != n {
				t.Errorf("event %d (%s) has %d effect rows, want %d", r.Seq, r.Kind, len(r.Effects), n)
			}
		}
		for seq := range committed {
			if !have[seq] {
				t.Errorf("kill %d: event %d was reported committed but is missing", round+1, seq)
			}
		}
		t.Logf("kill %d: %d events reported committed, %d in the database", round+1, len(committed), len(recs))
		if _, err := s.State("war"); err != nil {
			t.Errorf("kill %d: state does not replay: %v", round+1, err)
		}
		s.Close()
	}
}

// runAndKill runs the child until it has reported n commits, kills it with
// SIGKILL, and returns every sequence number it reported.
func runAndKill(t *testing.T, path string, n int) []int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var seqs []int
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		seq, err := strconv.Atoi(sc.Text())
		if err != nil {
			continue
		}
		seqs = append(seqs, seq)
		if len(seqs) == n {
			cmd.Process.Signal(syscall.SIGKILL)
		}
	}
	err = cmd.Wait()
	if len(seqs) < n {
		t.Fatalf("the child reported %d commits before ending (%v), want %d", len(seqs), err, n)
	}
	return seqs
}
