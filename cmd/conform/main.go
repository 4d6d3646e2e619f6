// Command conform runs the convspec conformance suite.
//
//	conform [flags]                     the suite against the built-in reference
//	conform [flags] CMD [ARGS…]         the suite against an external implementation
//	conform [flags] -- CMD [ARGS…]      the same (-- when CMD is named like a subcommand)
//	conform baseline -o FILE [flags] [-- CMD [ARGS…]]
//	                                    write a baseline accepting the current failures
//	conform init LANG [DIR]             a starter adapter with the kit of LANG (go, node, python) beside it
//	conform smoke [--] CMD [ARGS…]      the handshake and one valid request per declared method
//	conform copy DIR                    the scenarios, golden cases and spec as data files
//	conform check [flags] FILE…         recorded provider requests judged without an adapter
//	conform serve [-mutant NAME]        the reference (or a faulty variant) as a protocol v1 server
//	conform list [-run RE] [-skip RE]   every case ID with its kind and clauses
//	conform mutants                     the catalogue of faulty variants
//	conform replay [-dir DIR] [-- CMD [ARGS…]]
//	                                    run the golden vectors, without Gherkin
//	conform trace [-f FILE] [-gaps]     the document → clause → case map and its gaps
//	conform doc -o DIR                  the spec site: clauses, scenarios, properties, golden cases
//	conform matrix -o FILE REPORT.json…  implementations × capabilities and clauses, from JSON reports
//	conform version                     module version, protocol version, digest of the suite
//
// Exit status: 0 when nothing failed (or only what the baseline expects),
// 1 when a case failed (with -strict: or was unsupported), a baseline entry
// is stale, the restart limit was reached or the run was interrupted, 2 for
// a usage error, 3 when the implementation could not be started or failed
// the handshake, 4 when nothing failed but nothing was checked (no
// capability declared, or no selected case applies; D-51). The status is conform's own: never the implementation's,
// never a combination.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/convspec/convspec/conformance/report"
	_ "github.com/convspec/convspec/internal/startpath/restore" // no `go env` while godog is initialized
)

// Exit codes; each means one thing (report.Exit*).
const (
	exitOK       = report.ExitOK
	exitFailures = report.ExitFailures
	exitUsage    = report.ExitUsage
	exitNoImpl   = report.ExitNoImpl
)

func main() {
	setGC(os.Getenv)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if cmd, ok := subcommands()[args[0]]; ok {
			return cmd(args[1:], stdin, stdout, stderr)
		}
		if isHelp(args[0]) {
			usage(stdout)
			return exitOK
		}
	}
	return conform(args, stdout, stderr)
}

// A subcommand runs with the arguments after its name; each is in a file of
// its own.
type subcommand func(args []string, stdin io.Reader, stdout, stderr io.Writer) int

// subcommands are conform's subcommands by name. The default command (no
// name: run the suite) is not among them.
func subcommands() map[string]subcommand {
	return map[string]subcommand{
		"serve":    serve,
		"check":    checkCommand,
		"list":     withoutStdin(list),
		"mutants":  func(_ []string, _ io.Reader, stdout, _ io.Writer) int { return listMutants(stdout) },
		"trace":    withoutStdin(traceCommand),
		"replay":   withoutStdin(replay),
		"baseline": withoutStdin(baseline),
		"version":  withoutStdin(version),
		"doc":      withoutStdin(doc),
		"matrix":   withoutStdin(matrix),
		"smoke":    withoutStdin(smoke),
		"init":     withoutStdin(initCommand),
		"copy":     withoutStdin(copyCommand),
	}
}

// withoutStdin is a subcommand that reads nothing from conform's stdin.
func withoutStdin(f func(args []string, stdout, stderr io.Writer) int) subcommand {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return f(args, stdout, stderr) }
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  conform [flags]                  run the suite against the built-in reference
  conform [flags] CMD [ARGS...]    run the suite against an external implementation
                                   (every argument from CMD on is the implementation's)
  conform [flags] -- CMD [ARGS...] the same; -- when CMD is named like a subcommand
  conform baseline -o FILE [flags] [-- CMD [ARGS...]]
                                   run the whole suite and write a baseline accepting its failures
  conform init [-force] [-convspec DIR] LANG [DIR]
                                   write a starter adapter with the kit of LANG (go, node, python)
  conform smoke [--] CMD [ARGS...] check the handshake and one valid request per declared method
  conform copy [-force] DIR        write the scenarios, golden cases and spec as data files into DIR
  conform check [flags] FILE...    judge recorded provider requests (JSON Lines, JSON array, HAR) without an adapter
  conform serve [-mutant NAME]     serve the reference (or a faulty variant) on stdin/stdout
  conform list [-run RE] [-skip RE] print every case ID with its kind and clauses
  conform mutants                  print the catalogue of faulty variants
  conform replay [-dir DIR] [flags] [-- CMD [ARGS...]]
                                   replay the golden case files, comparing each response with the reference's
  conform trace [-f FILE] [-gaps]  print the map of document items to clauses to cases, and its gaps
  conform doc -o DIR               write the spec site (static HTML pages) to DIR
  conform matrix -o FILE REPORT.json...
                                   write an HTML matrix of implementations x capabilities and clauses
  conform version                  print conform's module version, the protocol version and the suite's digest

flags:
`)
	fs, _ := conformFlags(io.Discard)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, `
exit status: 0 nothing failed (or only what the baseline expects), 1 a case failed,
a baseline entry is stale, the restart limit was reached or the run was interrupted,
2 usage error, 3 the implementation could not be started or failed the handshake,
4 nothing was checked: no capability declared, or no selected case applies
`)
}

// isSubcommand reports whether run takes name as a subcommand (help
// included): a program so named must follow --.
func isSubcommand(name string) bool {
	_, ok := subcommands()[name]
	return ok || isHelp(name)
}

func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}
