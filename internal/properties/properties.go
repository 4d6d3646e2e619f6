// Package properties holds convspec's invariants as rapid properties over a
// target.Target: generated configurations and conversations are sent to the
// implementation and what comes back is checked against the spec's clauses.
package properties
