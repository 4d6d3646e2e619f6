// Package startpath keeps a dependency's package initialization from
// starting programs: godog's internal/builder runs `go env GOTOOLDIR` when
// it is initialized, so every conform process started `go` before main —
// a process per run the user never asked for, and one that with
// GOTOOLCHAIN=auto, in a module asking for a newer Go, goes to the network
// for a toolchain. conform never builds Go code through godog, the one use
// of what the command prints, and a failure of the command only leaves
// godog a tool directory of "." that nothing reads.
//
// Importing this package empties PATH while the packages after it are
// initialized, so that the lookup of `go` fails before anything is started;
// package restore puts PATH back as it was. Go initializes packages in the
// order of their import paths among those whose imports are initialized
// (the Go spec, "Package initialization", since Go 1.21): this package,
// which imports only os, comes before github.com/cucumber/godog's; restore
// imports godog, so it comes after. A command imports restore alone.
//
// Between the two, about ninety packages are initialized with PATH empty;
// none of conform's dependencies looks a program up while it is
// initialized but godog's builder (go/build's default context does not
// read PATH). A dependency that started doing so would find nothing, and
// no_go_at_start.txtar would not notice: look here first if one does.
package startpath

import "os"

// path is PATH as the process started with it; set reports whether it was
// set at all.
var path, set = os.LookupEnv("PATH")

func init() {
	os.Setenv("PATH", "")
}

// Restore puts PATH back as the process started with it.
func Restore() {
	if set {
		os.Setenv("PATH", path)
	} else {
		os.Unsetenv("PATH")
	}
}
