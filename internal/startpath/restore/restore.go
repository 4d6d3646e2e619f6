// Package restore puts PATH back once godog has been initialized without
// starting `go` (package startpath says why). Import it for its side
// effect, in a command: import _ "…/internal/startpath/restore".
package restore

import (
	_ "github.com/cucumber/godog" // initialized before this package, with PATH empty

	"github.com/convspec/convspec/internal/startpath"
)

func init() {
	startpath.Restore()
}
