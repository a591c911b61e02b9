package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCampaignExportThroughASymlink: "export -o LINK" writes the file the
// link points to (a backup folder on another disk, say) and leaves the
// link a link; a link to a file not yet there makes that file.
func TestCampaignExportThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	want := mustCLI(t, db, "", "export", "--campaign", "war")
	backups := filepath.Join(dir, "usb")
	os.Mkdir(backups, 0o755)
	for _, c := range []struct{ name, target string }{
		{"a link to an older export", "old.json"},
		{"a link to a file not yet written", "new.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			target := filepath.Join(backups, c.target)
			if c.target == "old.json" {
				os.WriteFile(target, []byte("old export"), 0o644)
			}
			link := filepath.Join(dir, "link-"+c.target)
			if err := os.Symlink(filepath.Join("usb", c.target), link); err != nil {
				t.Fatal(err)
			}
			mustCLI(t, db, "", "export", "--campaign", "war", "-o", link)
			if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s: got mode %v (%v), want it still a symbolic link", link, fi.Mode(), err)
			}
			if got, _ := os.ReadFile(target); string(got) != want {
				t.Errorf("the link's target holds %d bytes (%.20q), want the %d of the export", len(got), got, len(want))
			}
		})
	}
}

// TestCampaignExportRefusesTheWALOfALinkedDatabase: when --db is a
// symbolic link, SQLite keeps its -wal file beside the file the link
// points to; "export -o" naming that -wal file is refused.
func TestCampaignExportRefusesTheWALOfALinkedDatabase(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	real := filepath.Join(dir, "real", "c.db")
	mustCLI(t, real, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	before := mustCLI(t, link, "", "export", "--campaign", "war")
	for _, out := range []string{real + "-wal", real + "-shm", real} {
		code, _, errs := campaignCLI(t, link, "", "export", "--campaign", "war", "-o", out)
		if code != 2 || !strings.Contains(errs, "is the campaign database") {
			t.Errorf("-o %s: got exit %d, stderr %q; want exit 2 and \"is the campaign database\"", out, code, errs)
		}
	}
	if got := mustCLI(t, link, "", "export", "--campaign", "war"); got != before {
		t.Errorf("the refused exports changed the campaign:\n%s", got)
	}
}

// TestCampaignUndoExpect: the referee reads the history (last event #5, a
// transfer), another terminal records #6 meanwhile; "undo --expect 5" is
// refused and undoes nothing, where "undo" would have undone #6. With the
// event seen again, --expect 6 undoes it; a bad number is a usage error.
func TestCampaignUndoExpect(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	mustCLI(t, db, "", "new", "--campaign", "war", "--rules", "greatwar", gwSetup)
	mustCLI(t, db, "", "end-turn", "--campaign", "war", "--yes", gwTurn1) // #2-#4
	mustCLI(t, db, "", "transfer", "--campaign", "war", "--from", "oscar", "--to", "ursula", "--gold", "1")
	if h := mustCLI(t, db, "", "history", "--campaign", "war"); !strings.Contains(h, `"seq": 5`) || strings.Contains(h, `"seq": 6`) {
		t.Fatalf("history: got\n%s\nwant the transfer as #5, last", h)
	}
	mustCLI(t, db, "", "transfer", "--campaign", "war", "--from", "ursula", "--to", "oscar", "--gold", "1")
	code, _, errs := campaignCLI(t, db, "", "undo", "--campaign", "war", "--expect", "5")
	if code == 0 || !strings.Contains(errs, "the campaign changed: the last event is #6, not #5; nothing undone") {
		t.Errorf("undo --expect 5 with #6 recorded meanwhile: exit %d, %s; want the refusal", code, errs)
	}
	if h := mustCLI(t, db, "", "history", "--campaign", "war"); strings.Contains(h, "undone_at") {
		t.Errorf("after the refusal: an event is undone:\n%s", h)
	}
	if out := mustCLI(t, db, "", "undo", "--campaign", "war", "--expect", "6"); !strings.Contains(out, `"seq": 6`) {
		t.Errorf("undo --expect 6: got\n%s\nwant #6 undone", out)
	}
	for _, bad := range []string{"x", "0"} {
		if code, _, errs := campaignCLI(t, db, "", "undo", "--campaign", "war", "--expect", bad); code == 0 || !strings.Contains(errs, "--expect takes an event number") {
			t.Errorf("undo --expect %s: exit %d, %s; want a usage error", bad, code, errs)
		}
	}
	if out := mustCLI(t, db, "", "undo", "--help"); !strings.Contains(out, "--expect N") {
		t.Errorf("undo --help does not mention --expect:\n%s", out)
	}
}
