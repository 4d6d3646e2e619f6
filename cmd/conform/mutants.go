package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/convspec/convspec/internal/mutants"
)

// listMutants is `conform mutants`: the catalogue of faulty variants.
func listMutants(stdout io.Writer) int {
	for _, m := range mutants.All() {
		fmt.Fprintf(stdout, "%-24s %-12s %s\n", m.Name, strings.Join(m.Clauses, ","), m.Bug)
	}
	return exitOK
}
