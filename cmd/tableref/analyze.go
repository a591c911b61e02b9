package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"tableref/engine"
	"tableref/engine/rulesets"
	"tableref/models"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "read a layout file and print the analysis report (distances, contacts, hits, rulings)",
		usage: `Usage: tableref analyze [--rules NAME] [--format json|text] LAYOUT.json|LAYOUTS.jsonl

Reads snapshots of a table (a layout file, version 1, as "tableref detect"
writes it or as you write it by hand; or a stream of them, one a line, as
detect writes for a video or a folder) and prints what is on each:

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

One layout gives one report (indented JSON, or text). Several layouts give
one report each, in order: JSON Lines (one report a line) in json format,
or in text format each report under a line naming its record and source.
At a layout that cannot be read or analyzed, analyze stops: the reports of
the layouts before it are printed, the error names the record and its
line, and the exit status is 1. Layouts in pixels ("units": "px", detect
without a calibration) are read with pixel-sized limits and their reports
say "units": "px": distances are then in pixels.

Options:
  --rules NAME     the rules to apply (default geometry): ` + strings.Join(rulesets.Names(), ", ") + `
  --format FORMAT  json (default, for programs) or text (for people)

Examples:
  tableref analyze --rules geometry table.json
  tableref analyze --format text testdata/layouts/sandwich.json
  cat table.json | tableref analyze -
  tableref detect --calibration table.cal.json game.mp4 | tableref analyze - > reports.jsonl
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
	in, name, err := openLayouts(pos[0], e)
	if err != nil {
		return err
	}
	defer in.Close()
	return analyzeStream(models.NewStream(in, name), name, rs, *format, e.stdout)
}

// readLayout loads one layout from a file, or from standard input for "-".
func readLayout(path string, e *env) (models.Layout, error) {
	if path == "-" {
		return models.Read(e.stdin, "stdin")
	}
	return models.Load(path)
}

// openLayouts opens a layout file, or standard input for "-", and returns
// the name to give it in messages.
func openLayouts(path string, e *env) (io.ReadCloser, string, error) {
	if path == "-" {
		return io.NopCloser(e.stdin), "stdin", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("open layout: %w", err)
	}
	return f, path, nil
}

// analyzeStream prints a report for every layout of s. One layout gives
// today's single report; with several (known once the second is seen)
// every report is one JSON line, or in text a report under a heading. It
// stops at the first layout it cannot read or analyze, after printing the
// reports of those before.
func analyzeStream(s *models.Stream, name string, rs engine.Ruleset, format string, w io.Writer) error {
	first, err := s.Next()
	if err == io.EOF {
		return fmt.Errorf("%s: no layout in it", name)
	}
	if err != nil {
		return err
	}
	_, firstLine := s.Record()
	next, nextErr := s.Next()
	if nextErr == io.EOF { // one layout: the report as it always was
		rep, err := engine.Analyze(first, rs)
		if err != nil {
			return err
		}
		if format == "text" {
			return writeReportText(w, rep)
		}
		return writeJSON(w, rep)
	}
	// Text that is not JSON after the first layout (a stray bracket left
	// by hand) makes the input no stream of layouts: refused whole, as a
	// single file with text after it always was, nothing printed.
	var ve *models.ValidationError
	if errors.As(nextErr, &ve) && ve.Malformed() {
		return nextErr
	}
	if err := writeRecord(w, name, 1, firstLine, first, rs, format); err != nil {
		return err
	}
	for n := 2; nextErr != io.EOF; n++ {
		if nextErr != nil {
			return nextErr
		}
		_, line := s.Record()
		if err := writeRecord(w, name, n, line, next, rs, format); err != nil {
			return err
		}
		next, nextErr = s.Next()
	}
	return nil
}

// writeRecord analyzes record n of a stream of several layouts and prints
// its report: one JSON line, or a heading and the text report.
func writeRecord(w io.Writer, name string, n, line int, l models.Layout, rs engine.Ruleset, format string) error {
	rep, err := engine.Analyze(l, rs)
	if err != nil {
		return fmt.Errorf("%s: record %d (line %d): %w", name, n, line, err)
	}
	if format == "json" {
		data, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		_, err = w.Write(append(data, '\n'))
		return err
	}
	if n > 1 {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	head := fmt.Sprintf("=== Record %d (line %d)", n, line)
	if l.Source != "" {
		head += ": " + l.Source
	}
	if _, err := io.WriteString(w, head+" ===\n"); err != nil {
		return err
	}
	return writeReportText(w, rep)
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
	unit := "cm"
	if r.Units != "" {
		unit = r.Units
	}
	fmt.Fprintf(&b, "\nDistances, edge to edge (%s):\n", unit)
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
