// Command tableref is the referee assistant for disk wargames: it reads a
// table (a layout file, an image, a camera) and says what the rules make
// of it. Run "tableref help" for the commands.
//
// cmd is the only place where real parts are wired together and where the
// program decides to exit.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// command is one subcommand of tableref. Each lives in its own file and
// registers itself with register.
type command struct {
	name    string
	summary string // one line for the command list
	usage   string // the synopsis, then a paragraph for a newcomer, then examples
	// run executes the command with its arguments (after the name).
	run func(args []string, env *env) error
}

// env is what a command may use of the outside world.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errUsage marks an error in the command line: the message is followed by
// the command's usage and the exit code is 2.
var errUsage = errors.New("usage")

func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

func main() {
	os.Exit(run(os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}))
}

// run executes tableref with the given arguments and returns the exit
// code: 0 on success, 1 when the work failed, 2 for a bad command line.
func run(args []string, e *env) int {
	if len(args) == 0 {
		args = []string{defaultCommand}
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				fmt.Fprint(e.stdout, c.usage)
				return 0
			}
			fmt.Fprintf(e.stderr, "tableref: no command %q\n", args[1])
			return 2
		}
		printHelp(e.stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "tableref: unknown command %q\n\n", name)
		printHelp(e.stderr)
		return 2
	}
	err := c.run(args[1:], e)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(e.stdout, c.usage)
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(e.stderr, "tableref %s: %s\n\n%s", name, strings.TrimPrefix(err.Error(), "usage: "), c.usage)
		return 2
	}
	fmt.Fprintf(e.stderr, "tableref %s: %v\n", name, err)
	return 1
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, `tableref is a referee assistant for disk wargames (Diskwars, Warhammer:
Diskwars and their campaigns). A webcam above the table sees the disks and
the dropped tokens; tableref measures edge-to-edge distances in centimetres,
works out who pins whom and which projectiles hit, and applies the rules.

Usage: tableref COMMAND [options] [arguments]

Commands:
`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, `
Run "tableref help COMMAND" (or "tableref COMMAND --help") for a command's
options and examples. With no command, tableref runs "`+defaultCommand+`".
`)
}

// parseArgs parses flags that may come before, between or after the
// positional arguments, and returns the positional ones. "--" ends the
// flags; a lone "-" is a positional argument (standard input).
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usageError("%v", err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// checkFormat refuses an output format other than text or json.
func checkFormat(format string) error {
	if format != "text" && format != "json" {
		return usageError("unknown format %q: use text or json", format)
	}
	return nil
}
