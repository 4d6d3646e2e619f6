//go:build !unix

package tokens

import "time"

// processCPU is not measured outside Unix: the benchmarks then report wall
// time only.
func processCPU() (time.Duration, bool) { return 0, false }
