package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/server"
)

// serve is `conform serve`: the reference, or a faulty variant, as a protocol
// v1 server on stdin and stdout.
func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mutant := fs.String("mutant", "", "serve a faulty variant instead of the reference (see `conform mutants`)")
	if !parseFlagsOnly("conform serve", fs, args, stderr) {
		return exitUsage
	}
	engine := server.Engine(server.Reference{})
	if *mutant != "" {
		m, ok := mutants.Lookup(*mutant)
		if !ok {
			fmt.Fprintf(stderr, "conform serve: no mutant %q (see `conform mutants`)\n", *mutant)
			return exitUsage
		}
		engine = m.Engine
	}
	if err := server.Serve(context.Background(), server.NewHandler(engine), stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "conform serve: %v\n", err)
		return exitFailures
	}
	return exitOK
}
