package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"tableref/ledger"
)

func init() {
	register(&command{
		name:    "campaign",
		summary: "keep a long campaign (The Great War, The Conquest of Esfah): gold, purchases, recruiting, undo, export",
		usage:   campaignUsage,
		run:     runCampaign,
	})
}

const campaignUsage = `Usage: tableref campaign SUBCOMMAND [options] [arguments]

Keeps a campaign that lasts weeks of adjourned play in one database file.
Every change (income, purchase, transfer, bid, conquest, damage, death,
recruit, end of turn) is an event with its turn and time; the gold, units and
pools are worked out from the events, so "undo" simply sets the last event
aside. Two campaigns are known: The Great War (Diskwars, --rules greatwar)
and The Conquest of Esfah (Dragon Dice, --rules esfah).

Everything prints JSON. The database is one file, by default
$XDG_DATA_HOME/tableref/campaigns.db (~/.local/share/tableref/campaigns.db);
choose another with --db PATH or the TABLEREF_CAMPAIGN_DB variable.

Setting up and playing (the campaign is named by --campaign NAME):
  new        start a campaign: from a table layout of the homelands (Great
             War, checked against the set-up rules), from a setup event
             file, or from --players and --health (Esfah)
  check      check a Great War table against the set-up rules
  list       the campaigns in the database
  status     the state worked out from the events (gold, units, turn...)
  order      draw the playing order of the turn (Great War) and record it
  income     the income of the table at the end of the turn (see below)
  end-turn   propose the income and conquests from the live table; with
             --yes record them and end the turn
  buy        a purchase at the start of the turn (one item)
  bid        one round of a bidding war for a contested unique disk
  transfer   gold between allies
  record     record any event given as JSON (a file, or - for stdin)
  recruit    Esfah: the recruiting points of an army (no database)
  ledger     one player's gold (or pool) changes with their sources
  history    every event, undone ones marked
  undo       set the last event aside (--expect N: only if it is #N)
  export     write a whole campaign as JSON
  import     read a campaign exported as JSON

Common options:
  --db PATH          the database file
  --campaign NAME    the campaign (every subcommand that reads or writes one)
  --campaign FILE.db the database file itself (a value that is an existing
                     file, a path, or ends in .db, .sqlite or .sqlite3);
                     the campaign is the only one it holds, or --name NAME

Examples:
  tableref campaign new --campaign war --rules greatwar homelands.json
  tableref campaign income --rules greatwar table.json
  tableref campaign income --rules greatwar --campaign war table.json
  tableref campaign income --rules greatwar table.json --campaign war.db
  tableref campaign end-turn --campaign war --yes table.json
  tableref campaign buy --campaign war --player kate --unit Swordsmen --cost 4 --faction knights
  tableref campaign transfer --campaign war --from kate --to eli --gold 3
  tableref campaign bid --campaign war --unit "Ceryx Jade" --bidders kate,eli
  tableref campaign ledger --campaign war --player kate
  tableref campaign undo --campaign war
  tableref campaign export --campaign war > war.json
  tableref campaign import --campaign war-copy war.json
  tableref campaign new --campaign esfah --rules esfah --players chris,dana --health 180
  tableref campaign recruit --rules esfah army.json
  echo '{"kind":"end-turn"}' | tableref campaign record --campaign esfah -

Run "tableref campaign SUBCOMMAND --help" for a subcommand's options.
See docs/campaign.md for the events' JSON and the rules as implemented.
`

// subcommand is one "tableref campaign" subcommand.
type subcommand struct {
	usage string
	run   func(c *campaignCtx, pos []string) error
	// flags declares the subcommand's own flags.
	flags func(c *campaignCtx, fs *flag.FlagSet)
	// store says whether it opens the database.
	store bool
}

var subcommands = map[string]*subcommand{}

// campaignCtx holds the parsed common options and the open store.
type campaignCtx struct {
	env      *env
	db       string
	name     string
	rules    string
	ref      campaignRef
	store    *ledger.Store
	opts     map[string]*string
	switches map[string]*bool
}

func (c *campaignCtx) str(name string) string { return *c.opts[name] }
func (c *campaignCtx) on(name string) bool    { return *c.switches[name] }

func (c *campaignCtx) defString(fs *flag.FlagSet, name, def string) {
	c.opts[name] = fs.String(name, def, "")
}

func (c *campaignCtx) defBool(fs *flag.FlagSet, name string) {
	c.switches[name] = fs.Bool(name, false, "")
}

func runCampaign(args []string, e *env) error {
	if len(args) == 0 {
		return usageError("give a subcommand: %s", strings.Join(subcommandNames(), ", "))
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		return flag.ErrHelp
	}
	sub, ok := subcommands[args[0]]
	if !ok {
		return usageError("unknown subcommand %q: use one of %s", args[0], strings.Join(subcommandNames(), ", "))
	}
	c := &campaignCtx{env: e, opts: map[string]*string{}, switches: map[string]*bool{}}
	fs := flag.NewFlagSet("campaign "+args[0], flag.ContinueOnError)
	var campaign, db, name string
	fs.StringVar(&db, "db", "", "")
	fs.StringVar(&campaign, "campaign", "", "")
	fs.StringVar(&name, "name", "", "")
	fs.StringVar(&c.rules, "rules", "", "")
	if sub.flags != nil {
		sub.flags(c, fs)
	}
	pos, err := parseArgs(fs, args[1:])
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(e.stdout, sub.usage)
		return nil
	}
	if err != nil {
		return err
	}
	if c.ref, err = parseCampaignRef(campaign, db, name); err != nil {
		return err
	}
	c.db, c.name = c.ref.db, c.ref.name
	if sub.store {
		// new and import create their campaign; list needs none.
		makes := args[0] == "new" || args[0] == "import"
		if c.store, c.name, err = openCampaignRef(c.ref, !makes && args[0] != "list", makes); err != nil {
			return err
		}
		defer c.store.Close()
	}
	return sub.run(c, pos)
}

// campaignRef is what --campaign, --db and --name name: a database file
// and a campaign in it. "--campaign NAME [--db PATH]" names a campaign of
// a database (the default one without --db); "--campaign FILE.db [--name
// NAME]" names the database file itself, and the campaign in it is the one
// --name gives or, without it, the only one the file holds.
type campaignRef struct {
	db   string // the database file ("" for the default one)
	name string // the campaign ("" for none, or the only one of a file)
	file bool   // --campaign named the database file
}

// looksLikeDBFile says whether a --campaign value names a database file:
// an existing file, a path, or a name ending in .db, .sqlite or .sqlite3.
func looksLikeDBFile(v string) bool {
	if v == "" {
		return false
	}
	if strings.ContainsRune(v, '/') || strings.ContainsRune(v, filepath.Separator) {
		return true
	}
	switch strings.ToLower(filepath.Ext(v)) {
	case ".db", ".sqlite", ".sqlite3":
		return true
	}
	st, err := os.Stat(v)
	return err == nil && st.Mode().IsRegular()
}

func parseCampaignRef(campaign, db, name string) (campaignRef, error) {
	if looksLikeDBFile(campaign) {
		if db != "" && filepath.Clean(db) != filepath.Clean(campaign) {
			return campaignRef{}, usageError("--campaign %s names a database file and --db another (%s): give the file once", campaign, db)
		}
		return campaignRef{db: campaign, name: name, file: true}, nil
	}
	if campaign != "" && name != "" && campaign != name {
		return campaignRef{}, usageError("--campaign %s and --name %s: --name chooses a campaign of the file given with --campaign FILE.db; give one name", campaign, name)
	}
	if campaign == "" {
		campaign = name
	}
	return campaignRef{db: db, name: campaign}, nil
}

// openCampaignRef opens the database a reference names. In the file form
// the file must exist unless create is set, and with pick a campaign not
// named by --name is the only one the file holds.
func openCampaignRef(ref campaignRef, pick, create bool) (*ledger.Store, string, error) {
	if ref.file && !create {
		if _, err := os.Stat(ref.db); err != nil {
			return nil, "", fmt.Errorf("--campaign %s: no campaign database there (%w); start one with \"tableref campaign new --campaign %s --name NAME --rules greatwar|esfah ...\"", ref.db, err, ref.db)
		}
	}
	store, err := openStore(ref.db)
	if err != nil {
		if ref.file {
			err = fmt.Errorf("--campaign %s, read as the campaign database file: %w", ref.db, err)
		}
		return nil, "", err
	}
	name := ref.name
	if ref.file && pick && name == "" {
		if name, err = onlyCampaign(store); err != nil {
			store.Close()
			return nil, "", err
		}
	}
	return store, name, nil
}

// onlyCampaign returns the name of the only campaign of the store.
func onlyCampaign(store *ledger.Store) (string, error) {
	cs, err := store.Campaigns()
	if err != nil {
		return "", err
	}
	switch len(cs) {
	case 0:
		return "", fmt.Errorf("%s holds no campaign yet: start one with \"tableref campaign new --campaign %s --name NAME ...\"", store.Path(), store.Path())
	case 1:
		return cs[0].Name, nil
	}
	names := make([]string, len(cs))
	for i, cp := range cs {
		names[i] = cp.Name
	}
	return "", usageError("%s holds %d campaigns (%s): choose one with --name NAME", store.Path(), len(cs), strings.Join(names, ", "))
}

func subcommandNames() []string {
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// DefaultDBPath is where campaigns are kept when no --db is given:
// $TABLEREF_CAMPAIGN_DB, else $XDG_DATA_HOME/tableref/campaigns.db, else
// ~/.local/share/tableref/campaigns.db, else the user's config directory.
func defaultDBPath() (string, error) {
	if p := os.Getenv("TABLEREF_CAMPAIGN_DB"); p != "" {
		return p, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "tableref", "campaigns.db"), nil
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "tableref", "campaigns.db"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no place for the campaign database: give --db PATH (%w)", err)
	}
	return filepath.Join(d, "tableref", "campaigns.db"), nil
}

func openStore(path string) (*ledger.Store, error) {
	if path == "" {
		var err error
		if path, err = defaultDBPath(); err != nil {
			return nil, err
		}
	}
	return ledger.Open(path)
}

// needName returns the campaign name or a usage error.
func (c *campaignCtx) needName() (string, error) {
	if c.name == "" && c.ref.file {
		return "", usageError("give the campaign's name with --name NAME (--campaign %s names the database file)", c.ref.db)
	}
	if c.name == "" {
		return "", usageError("give the campaign with --campaign NAME")
	}
	return c.name, nil
}

// campaignRules returns the rules of the named campaign, or of --rules.
func (c *campaignCtx) campaignRules() (string, error) {
	if c.name != "" && c.store != nil {
		cp, err := c.store.Campaign(c.name)
		if err != nil {
			return "", err
		}
		if c.rules != "" && c.rules != cp.Rules {
			return "", usageError("campaign %s plays %s, not %s", c.name, cp.Rules, c.rules)
		}
		return cp.Rules, nil
	}
	if !slices.Contains(ledger.RuleSets, c.rules) {
		return "", usageError("give --rules %s", strings.Join(ledger.RuleSets, " or "))
	}
	return c.rules, nil
}
