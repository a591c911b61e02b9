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
