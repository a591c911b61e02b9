package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"tableref/ledger"
	"tableref/models"
)

func init() {
	subcommands["list"] = &subcommand{store: true, run: runCampaignList,
		usage: "Usage: tableref campaign list [--db PATH]\n\nLists the campaigns in the database (name, rules, creation time).\n"}
	subcommands["status"] = &subcommand{store: true, run: runCampaignStatus,
		usage: "Usage: tableref campaign status --campaign NAME [--db PATH]\n\nPrints the state worked out from the campaign's events: turn, players,\ngold (Great War) or recruiting pools (Esfah), units, conquests, biddings.\n\nExample:\n  tableref campaign status --campaign war\n"}
	subcommands["history"] = &subcommand{store: true, run: runCampaignHistory,
		usage: "Usage: tableref campaign history --campaign NAME [--db PATH]\n\nPrints every event with its turn, time and effects; undone events carry\n\"undone_at\".\n"}
	subcommands["ledger"] = &subcommand{store: true, run: runCampaignLedger, flags: func(c *campaignCtx, fs *flag.FlagSet) { c.defString(fs, "player", "") },
		usage: "Usage: tableref campaign ledger --campaign NAME --player PLAYER [--db PATH]\n\nPrints every change to one player's counters (gold, pool, units) with its\nturn, the event, the source and the running balance.\n\nExample:\n  tableref campaign ledger --campaign war --player kate\n"}
	subcommands["undo"] = &subcommand{store: true, run: runCampaignUndo, flags: func(c *campaignCtx, fs *flag.FlagSet) { c.defString(fs, "expect", "") },
		usage: `Usage: tableref campaign undo --campaign NAME [--db PATH] [--expect N]

Sets the last live event aside (it stays in the history, marked undone)
and prints it. Run it again to undo the event before.

--expect N undoes the last live event only if it is event #N (its "seq" in
history), checked in the same transaction as the undo: when another window
or command recorded or undid an event since you looked, it says "the
campaign changed: the last event is #M, not #N; nothing undone" and changes
nothing. Without --expect the last live event is undone, whichever it is.

Example:
  tableref campaign undo --campaign war --expect 12
`}
	subcommands["record"] = &subcommand{store: true, run: runCampaignRecord,
		usage: `Usage: tableref campaign record --campaign NAME [--db PATH] EVENT.json|-

Records one event given as JSON (a file, or - for standard input) after the
rules have accepted it, and prints it with its effects. The events of each
rules are listed in docs/campaign.md.

Examples:
  echo '{"kind":"death","player":"kate","unit":"Ceryx Jade"}' | tableref campaign record --campaign war -
  echo '{"kind":"purchase","orders":[{"player":"kate","items":[{"name":"Ceryx Jade","cost":6,"unique":true}]},{"player":"eli","items":[{"name":"Ceryx Jade","cost":6,"unique":true}]}]}' | tableref campaign record --campaign war -
`}
	subcommands["export"] = &subcommand{store: true, run: runCampaignExport, flags: func(c *campaignCtx, fs *flag.FlagSet) { c.defString(fs, "o", "") },
		usage: "Usage: tableref campaign export --campaign NAME [--db PATH] [-o FILE]\n\nWrites the whole campaign (every event with its effects) as JSON, to\nstandard output or to FILE.\n\nExample:\n  tableref campaign export --campaign war -o war-2025-03.json\n"}
	subcommands["import"] = &subcommand{store: true, run: runCampaignImport,
		usage: "Usage: tableref campaign import [--campaign NEWNAME] [--db PATH] FILE.json|-\n\nReads a campaign written by export. Every event is replayed through the\nrules and must give the effects the file records; a refused file changes\nnothing. --campaign stores it under another name.\n\nExample:\n  tableref campaign import --db other.db war-2025-03.json\n"}
}

func runCampaignList(c *campaignCtx, _ []string) error {
	cs, err := c.store.Campaigns()
	if err != nil {
		return err
	}
	if cs == nil {
		cs = []ledger.Campaign{}
	}
	return writeJSON(c.env.stdout, map[string]any{"db": c.store.Path(), "campaigns": cs})
}

func runCampaignStatus(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	st, err := c.store.State(name)
	if err != nil {
		return err
	}
	cp, _ := c.store.Campaign(name)
	return writeJSON(c.env.stdout, map[string]any{"campaign": cp, "state": st})
}

func runCampaignHistory(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	recs, err := c.store.Events(name)
	if err != nil {
		return err
	}
	if recs == nil {
		recs = []ledger.Record{}
	}
	return writeJSON(c.env.stdout, map[string]any{"events": recs})
}

func runCampaignLedger(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	p := c.str("player")
	if p == "" {
		return usageError("give the player with --player")
	}
	lines, err := c.store.PlayerLedger(name, p)
	if err != nil {
		return err
	}
	return writeJSON(c.env.stdout, map[string]any{"player": p, "ledger": lines})
}

func runCampaignUndo(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	var rec ledger.Record
	if e := c.str("expect"); e != "" {
		n, perr := strconv.Atoi(e)
		if perr != nil || n < 1 {
			return usageError("--expect takes an event number (the seq of the event in history), got %q", e)
		}
		rec, err = c.store.UndoIf(name, n)
	} else {
		rec, err = c.store.Undo(name)
	}
	if err != nil {
		return err
	}
	return writeJSON(c.env.stdout, map[string]any{"undone": rec})
}

// readInput reads a file, or standard input for "-".
func readCampaignInput(c *campaignCtx, path string) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(c.env.stdin)
	}
	return os.ReadFile(path)
}

func onePath(pos []string, what string) (string, error) {
	if len(pos) != 1 {
		return "", usageError("give exactly one %s (or - for standard input), got %d", what, len(pos))
	}
	return pos[0], nil
}

func runCampaignRecord(c *campaignCtx, pos []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	path, err := onePath(pos, "event file")
	if err != nil {
		return err
	}
	data, err := readCampaignInput(c, path)
	if err != nil {
		return err
	}
	return c.append(name, json.RawMessage(data))
}

// append records one event and prints it.
func (c *campaignCtx) append(name string, event json.RawMessage) error {
	rec, err := c.store.Append(name, event)
	if err != nil {
		return fmt.Errorf("campaign %s: %w", name, err)
	}
	return writeJSON(c.env.stdout, map[string]any{"recorded": rec})
}

func runCampaignExport(c *campaignCtx, _ []string) error {
	name, err := c.needName()
	if err != nil {
		return err
	}
	x, err := c.store.Export(name)
	if err != nil {
		return err
	}
	data, err := ledger.MarshalExport(x)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if out := c.str("o"); out != "" {
		// The file a symbolic link names is written, not the link
		// replaced by a file beside it.
		target, err := linkTarget(out)
		if err != nil {
			return fmt.Errorf("export to %s: %w", out, err)
		}
		if err := notTheDatabase(target, c.store.Path()); err != nil {
			return err
		}
		if err := models.WriteFileAtomic(target, data); err != nil {
			return fmt.Errorf("export to %s: %w", out, err)
		}
		return nil
	}
	_, err = c.env.stdout.Write(data)
	return err
}

// linkTarget follows path through symbolic links to the file they name,
// which need not exist yet; a path that is no link is returned as it is.
func linkTarget(path string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("too many levels of symbolic links")
}

// notTheDatabase refuses an output file that is the open campaign
// database or one of its -wal and -shm files: writing the export there
// would destroy the campaign it was read from. SQLite keeps those files
// beside the file a linked database path points to, so they are looked
// for there too.
func notTheDatabase(out, db string) error {
	dbs := []string{db}
	if real, err := filepath.EvalSymlinks(db); err == nil && real != db {
		dbs = append(dbs, real)
	}
	for _, d := range dbs {
		for _, f := range []string{d, d + "-wal", d + "-shm", d + "-journal"} {
			if sameFile(out, f) {
				return usageError("-o %s is the campaign database %s (or one of its files): export to another file", out, db)
			}
		}
	}
	return nil
}

// sameFile says whether a and b name the same file: the same file on disk
// when both exist, else the same absolute path once symbolic links in
// their folders are resolved.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	return resolved(a) == resolved(b)
}

func resolved(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

func runCampaignImport(c *campaignCtx, pos []string) error {
	path, err := onePath(pos, "campaign file")
	if err != nil {
		return err
	}
	data, err := readCampaignInput(c, path)
	if err != nil {
		return err
	}
	x, err := ledger.ParseExport(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	cp, err := c.store.Import(x, c.name)
	if err != nil {
		return err
	}
	return writeJSON(c.env.stdout, map[string]any{"imported": cp, "events": len(x.Events)})
}
