package ledger

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestForeignDatabaseIsLeftAlone: an SQLite file of another program is
// refused before anything is written to it (no tables added, no switch
// to WAL, not even a version table).
func TestForeignDatabaseIsLeftAlone(t *testing.T) {
	cases := []struct {
		name string
		sql  string
	}{
		{"a file with a table of notes", `CREATE TABLE notes (body TEXT)`},
		{"a file with its own events table", `CREATE TABLE events (id INTEGER PRIMARY KEY, what TEXT)`},
		{"a version table among other tables", `CREATE TABLE schema_version (version INTEGER); INSERT INTO schema_version VALUES (2); CREATE TABLE notes (body TEXT)`},
		{"an empty version table beside an events table", `CREATE TABLE schema_version (version INTEGER NOT NULL); CREATE TABLE events (id INTEGER PRIMARY KEY)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "foreign.sqlite")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(c.sql); err != nil {
				t.Fatal(err)
			}
			db.Close()
			before, _ := os.ReadFile(path)
			s, err := Open(path)
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, ErrForeign) {
				t.Errorf("got %v, want ErrForeign", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
				t.Errorf("the refused file changed (%d bytes, was %d)", len(after), len(before))
			}
			if _, err := os.Stat(path + "-wal"); err == nil {
				t.Error("the refused file was switched to WAL")
			}
		})
	}
}

// TestConcurrentWriters: stores opened on the same file at once, like
// processes, all succeed: four creating the schema of a new file, then
// four appending to one campaign (each write waits for the lock instead of
// failing with SQLITE_BUSY).
func TestConcurrentWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "race.db")
	const n, each = 4, 10
	parallel := func(f func(i int, s *Store) error) {
		t.Helper()
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := Open(path)
				if err != nil {
					errs[i] = err
					return
				}
				defer s.Close()
				errs[i] = f(i, s)
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("writer %d: %v", i, err)
			}
		}
	}
	parallel(func(i int, s *Store) error {
		_, err := s.Create(fmt.Sprintf("war%d", i), GreatWar)
		return err
	})
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if cs, _ := s.Campaigns(); len(cs) != n {
		t.Fatalf("got %d campaigns, want %d", len(cs), n)
	}
	mustAppend(t, s, "war0", setupGW)
	parallel(func(i int, s *Store) error {
		// Kate's 5 gold cover the four writers' loans at any moment.
		for range each {
			if _, err := s.Append("war0", []byte(`{"kind":"transfer","player":"kate","to":"eli","gold":1}`)); err != nil {
				return err
			}
			if _, err := s.Append("war0", []byte(`{"kind":"transfer","player":"eli","to":"kate","gold":1}`)); err != nil {
				return err
			}
		}
		return nil
	})
	recs, err := s.Events("war0")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+2*n*each {
		t.Errorf("got %d events, want the setup and %d transfers", len(recs), 2*n*each)
	}
	if g := gold(t, s, "war0"); g["kate"] != 5 || g["eli"] != 0 {
		t.Errorf("gold after the transfers there and back: got %v, want kate 5 and eli 0", g)
	}
}

// TestReadOnlyFolderIsNotCorrupt: a campaign database in a folder it may
// not write (where SQLite cannot make its -shm file) is reported as one
// that cannot be written, not as a corrupt file.
func TestReadOnlyFolderIsNotCorrupt(t *testing.T) {
	if os.Geteuid() == 0 {
		// Root writes to read-only folders: the test runs again in a
		// process of its own as an unprivileged user (nobody).
		asNobody(t, "TestReadOnlyFolderIsNotCorrupt")
		return
	}
	dir := filepath.Join(t.TempDir(), "ro")
	s, err := Open(filepath.Join(dir, "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Create("war", GreatWar)
	s.Close()
	os.Chmod(dir, 0o555)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	s, err = Open(filepath.Join(dir, "c.db"))
	if err == nil {
		s.Close()
	}
	if err == nil || errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "cannot be opened for writing") {
		t.Errorf("got %v, want an error saying it cannot be opened for writing", err)
	}
}

// asNobody runs test name of this package's test binary again, as the
// user nobody (65534), and fails t with its output if it fails there.
func asNobody(t *testing.T, name string) {
	t.Helper()
	// The test binary, in a folder nobody may read.
	dir, err := os.MkdirTemp("", "tableref-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin, err := os.ReadFile(os.Args[0])
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "test"), bin, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(dir, "test"), "-test.run=^"+name+"$", "-test.count=1", "-test.v")
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "TMPDIR="+os.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s as nobody: %v\n%s", name, err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("%s as nobody did not pass:\n%s", name, out)
	}
}

// TestReadOnlyFileRefusesWritesClearly: a campaign database the user may
// read but not write still shows its campaign; a change is refused with
// a message naming the file and saying why, and nothing is recorded.
func TestReadOnlyFileRefusesWritesClearly(t *testing.T) {
	if os.Geteuid() == 0 {
		asNobody(t, "TestReadOnlyFileRefusesWritesClearly")
		return
	}
	path := filepath.Join(t.TempDir(), "c.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Create("war", GreatWar)
	mustAppend(t, s, "war", setupGW)
	s.Close()
	os.Chmod(path, 0o444)
	s, err = Open(path)
	if err != nil {
		t.Fatalf("open a read-only file: %v", err)
	}
	defer s.Close()
	if _, err := s.State("war"); err != nil {
		t.Errorf("the state of a read-only file: %v", err)
	}
	_, err = s.Append("war", []byte(`{"kind":"end-turn"}`))
	if err == nil || !strings.Contains(err.Error(), "cannot be written") || !strings.Contains(err.Error(), path) {
		t.Errorf("append to a read-only file: got %v, want an error naming %s and saying it cannot be written", err, path)
	}
	if recs, _ := s.Events("war"); len(recs) != 1 {
		t.Errorf("got %d events, want only the setup", len(recs))
	}
}
