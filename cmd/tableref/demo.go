package main

import (
	"bytes"
	_ "embed"
	"flag"

	"tableref/engine"
	"tableref/engine/rulesets"
	"tableref/models"
)

// demoTable is the table "tableref demo" and the desktop program show when
// no camera and no file is given.
//
//go:embed demo/table.json
var demoTable []byte

// defaultCommand is what "tableref" runs with no arguments.
const defaultCommand = "ui"

func init() {
	register(&command{
		name:    "demo",
		summary: "analyze the built-in demo table and print the result for people",
		usage: `Usage: tableref demo [--rules NAME] [--format text|json]

Analyzes a small table built into the program (two armies around a forest,
a few arrows and a boulder dropped on them) so that you can see what
tableref reports without a camera or a layout file of your own.

Options:
  --rules NAME     the rules to apply (default geometry)
  --format FORMAT  text (default) or json

Examples:
  tableref demo
  tableref demo --format json > demo.json
`,
		run: runDemo,
	})
}

func runDemo(args []string, e *env) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	rules := fs.String("rules", rulesets.Geometry, "")
	format := fs.String("format", "text", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return usageError("demo takes no file")
	}
	rs, err := rulesets.Lookup(*rules)
	if err != nil {
		return usageError("%v", err)
	}
	l, err := models.Read(bytes.NewReader(demoTable), "demo table")
	if err != nil {
		return err
	}
	rep, err := engine.Analyze(l, rs)
	if err != nil {
		return err
	}
	if *format == "json" {
		return writeJSON(e.stdout, rep)
	}
	return writeReportText(e.stdout, rep)
}
