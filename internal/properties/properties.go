// Package properties holds convspec's invariants as rapid properties over a
// target.Target, one list per capability (windowProperties in window.go,
// …; All joins them): generated configurations and conversations are sent
// to the implementation and what comes back is checked against the spec's
// clauses.
//
// The inputs come from package gen, the answers the clauses compute from
// package model; this package holds the sessions that talk to a target,
// the checks, their edge examples and the narration of a failure. It does
// not consult the reference: the properties that do are in package
// differential.
package properties
