package main

import "runtime/debug"

// gcPercent is the garbage collector's target for a conform process when
// the user set none: 200, twice Go's default. A run allocates much and
// keeps little (generated conversations, encoded requests, decoded
// answers), so that at 100 the collector ran often over a small live heap;
// at 200 a whole run over the wire took 0.92 of the CPU and wall time of
// both processes (5 interleaved pairs) for a peak RSS of 157 MB instead of
// 114 (BENCHMARKS.md, "Asked once"). GOGC, when set, is the user's and is
// left alone.
func gcPercent(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		return -1 // the runtime has read it
	}
	return 200
}

// setGC applies gcPercent to this process.
func setGC(getenv func(string) string) {
	if p := gcPercent(getenv); p > 0 {
		debug.SetGCPercent(p)
	}
}
