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
  undo       set the last event aside
  export     write a whole campaign as JSON
  import     read a campaign exported as JSON

Common options:
  --db PATH          the database file
  --campaign NAME    the campaign (every subcommand that reads or writes one)

Examples:
  tableref campaign new --campaign war --rules greatwar homelands.json
  tableref campaign income --rules greatwar table.json
  tableref campaign income --rules greatwar --campaign war table.json
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
	fs.StringVar(&c.db, "db", "", "")
	fs.StringVar(&c.name, "campaign", "", "")
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
	if sub.store {
		if c.store, err = openStore(c.db); err != nil {
			return err
		}
		defer c.store.Close()
	}
	return sub.run(c, pos)
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
