// Package features embeds convspec's Gherkin scenarios, grouped by
// capability, so that the conform binary carries them.
package features

import "embed"

// FS holds every *.feature file, by path relative to this directory.
//
//go:embed */*.feature
var FS embed.FS
