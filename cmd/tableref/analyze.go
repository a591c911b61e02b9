package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"tableref/engine"
	"tableref/engine/rulesets"
	"tableref/models"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "read a layout file and print the analysis report (distances, contacts, hits, rulings)",
		usage: `Usage: tableref analyze [--rules NAME] [--format json|text] LAYOUT.json

Reads one snapshot of a table (a layout file, version 1, as "tableref detect"
writes it or as you write it by hand) and prints what is on it:

  distances  the edge-to-edge distance of every pair of disks, in cm
  contacts   which disk lies on which (pins it), with the sandwich rule:
             a disk lying between two overlapping disks and covering all
             of their overlap keeps them apart
  chains     groups of disks linked by contacts
  hits       for each projectile token, the disks it hits (only the upper
             one where a disk lies on another)
  touches    for every token, the disks it touches

A ruleset adds its rulings (engagements, melee, damage): see --rules.
Use "-" as the file name to read the layout from standard input.

Options:
  --rules NAME     the rules to apply (default geometry): ` + strings.Join(rulesets.Names(), ", ") + `
  --format FORMAT  json (default, for programs) or text (for people)

Examples:
  tableref analyze --rules geometry table.json
  tableref analyze --format text testdata/layouts/sandwich.json
  cat table.json | tableref analyze -
`,
		run: runAnalyze,
	})
}

func runAnalyze(args []string, e *env) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	rules := fs.String("rules", rulesets.Geometry, "")
	format := fs.String("format", "json", "")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError("give exactly one layout file (or - for standard input), got %d", len(pos))
	}
	if *format != "json" && *format != "text" {
		return usageError("unknown format %q: use json or text", *format)
	}
	rs, err := rulesets.Lookup(*rules)
	if err != nil {
		return usageError("%v", err)
	}
	l, err := readLayout(pos[0], e)
	if err != nil {
		return err
	}
	rep, err := engine.Analyze(l, rs)
	if err != nil {
		return err
	}
	if *format == "text" {
		return writeReportText(e.stdout, rep)
	}
	return writeJSON(e.stdout, rep)
}

// readLayout loads a layout from a file, or from standard input for "-".
func readLayout(path string, e *env) (models.Layout, error) {
	if path == "-" {
		return models.Read(e.stdin, "stdin")
	}
	return models.Load(path)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeReportText prints a report for people.
func writeReportText(w io.Writer, r engine.Report) error {
	t := r.Table
	var b strings.Builder
	fmt.Fprintf(&b, "Rules: %s   Disks: %d   Tokens: %d\n", r.Rules, t.Len(), t.TokenLen())
	for _, wmsg := range r.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", wmsg)
	}
	b.WriteString("\nContacts (top pins bottom):\n")
	if len(r.Contacts) == 0 {
		b.WriteString("  none\n")
	}
	for _, c := range r.Contacts {
		fmt.Fprintf(&b, "  %s on %s\n", label(t, c.Top), label(t, c.Bottom))
	}
	if len(r.Chains) > 0 {
		b.WriteString("\nContact chains:\n")
		for _, c := range r.Chains {
			fmt.Fprintf(&b, "  %s\n", strings.Join(c, " - "))
		}
	}
	if len(r.Hits) > 0 {
		b.WriteString("\nProjectiles:\n")
		for _, h := range r.Hits {
			if len(h.Disks) == 0 {
				fmt.Fprintf(&b, "  %s misses\n", h.Token)
			} else {
				fmt.Fprintf(&b, "  %s hits %s\n", h.Token, strings.Join(h.Disks, ", "))
			}
		}
	}
	writeRulingsText(&b, r)
	b.WriteString("\nDistances, edge to edge (cm):\n")
	for _, d := range r.Distances {
		state := ""
		if i, ok := t.Index(d.A); ok {
			if j, ok := t.Index(d.B); ok && t.Overlap(i, j) {
				state = "  (overlap)"
			}
		}
		fmt.Fprintf(&b, "  %-12s %-12s %8.2f%s\n", d.A, d.B, d.Edge, state)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRulingsText(b *strings.Builder, r engine.Report) {
	if len(r.Engagements) > 0 {
		b.WriteString("\nEngagements:\n")
		for _, g := range r.Engagements {
			fmt.Fprintf(b, "  %s: %s attack %s\n", g.ID, strings.Join(g.Attackers, ", "), strings.Join(g.Defenders, ", "))
		}
	}
	if len(r.Embattled) > 0 {
		fmt.Fprintf(b, "Embattled: %s\n", strings.Join(r.Embattled, ", "))
	}
	for _, p := range r.ResolveBefore {
		fmt.Fprintf(b, "  resolve %s before %s\n", p[0], p[1])
	}
	if len(r.Log) > 0 {
		b.WriteString("\nResolution:\n")
		for _, ev := range r.Log {
			fmt.Fprintf(b, "  %s\n", ev.Text)
		}
	}
	if r.Melee != nil {
		fmt.Fprintf(b, "\nCasualties: %s\n", orNone(r.Melee.Casualties))
	}
}

func label(t *engine.Table, id string) string {
	if i, ok := t.Index(id); ok && t.Disk(i).Name != "" {
		return fmt.Sprintf("%s (%s)", id, t.Disk(i).Name)
	}
	return id
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
