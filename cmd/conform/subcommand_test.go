package main

import (
	"strings"
	"testing"
)

// A program named like a subcommand must follow -- in the command line smoke
// prints, or conform would run the subcommand instead of the suite.
func TestSuiteCommandSeparatesASubcommandName(t *testing.T) {
	names := []string{"help", "-h", "--help"}
	for name := range subcommands() {
		names = append(names, name)
	}
	for _, name := range names {
		got := suiteCommand(&settings{}, []string{name, "x"})
		if !strings.HasPrefix(got, "conform -- ") {
			t.Errorf("smoke prints %q for a program named %q: conform would run its subcommand", got, name)
		}
	}
	if got := suiteCommand(&settings{}, []string{"./adapter"}); got != "conform ./adapter" {
		t.Errorf("smoke prints %q for ./adapter, want conform ./adapter", got)
	}
}
