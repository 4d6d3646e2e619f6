// Package model computes what an answer must be without asking any
// implementation: where a trim cuts (the plan of WIN-1 – WIN-4 and WIN-9),
// what pruning removes (PRUNE-1, PRUNE-2), what history.build keeps
// (BUILD-1 – BUILD-4), and what a summarizing window must make of each
// trim given what it remembers (SUM-1 – SUM-8). The properties compare a
// target's answers with these models and explain the difference; the
// models themselves know neither targets nor sessions, so they are tested
// here on their own, fast.
package model
