// Command golden writes convspec's golden vectors: every scenario's
// requests and the reference's responses (spec/golden.md). `make golden`
// runs it from the repository root.
//
//	go run ./internal/golden/cmd/golden [-o testdata/golden/cases]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/convspec/convspec/internal/golden"
)

func main() {
	out := flag.String("o", golden.Dir, "write the golden files under `DIR` (its other *.json files are removed)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "golden: unexpected argument %q\n", flag.Arg(0))
		os.Exit(2)
	}
	cases, err := golden.Generate(nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "golden: %v\n", err)
		os.Exit(1)
	}
	if err := golden.Write(*out, cases); err != nil {
		fmt.Fprintf(os.Stderr, "golden: %v\n", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "golden: %d cases under %s\n", len(cases), *out)
}
