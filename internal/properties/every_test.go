package properties

import (
	"slices"

	"github.com/convspec/convspec/internal/differential"
	"github.com/convspec/convspec/internal/prop"
)

// every is the whole catalogue as the runner lists it: the tests that
// check a rule of every property (an ID, edge examples, a faulty variant
// that fails it) check the differential ones too.
func every() []prop.Property { return slices.Concat(All(), differential.All()) }
