package main

// conform version: which conform this is and which suite it carries.

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/convspec/convspec"
	"github.com/convspec/convspec/conformance/protocol"
)

// moduleVersion is the version of the module conform was built from:
// v1.2.3 after `go install …@v1.2.3`, "(devel)" for a build in a checkout.
func moduleVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func version(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "conform version: unexpected argument %q\nusage: conform version\n", args[0])
		return exitUsage
	}
	digest, err := convspec.Digest()
	if err != nil {
		fmt.Fprintf(stderr, "conform version: %v\n", err)
		return exitFailures
	}
	fmt.Fprintf(stdout, "conform %s\nprotocol %d\nsuite %s\n", moduleVersion(), protocol.Version, digest)
	return exitOK
}
