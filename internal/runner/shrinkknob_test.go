package runner

import (
	"context"
	"flag"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/server"
)

// A property whose edge example failed turns rapid's process-wide
// shrinking off for its own random checks only while no other property's
// random checks run: each check of another property holds the knob for
// reading, so the knob cannot be turned under it, and the shrinking of a
// property never depends on what the other worker runs at the time.
func TestShrinkKnobIsNeverTurnedUnderAnotherCheck(t *testing.T) {
	var mu sync.Mutex
	var turnable, readable []bool
	var shrinkTimes []string
	knobTurnable := func() bool {
		if shrinkKnob.TryLock() {
			shrinkKnob.Unlock()
			return true
		}
		return false
	}
	knobReadable := func() bool {
		if shrinkKnob.TryRLock() {
			shrinkKnob.RUnlock()
			return true
		}
		return false
	}
	props := []prop.Property{
		{
			ID: "prop/test-failing-example", Clauses: []string{"WIN-1"}, Capability: protocol.CapWindow, Doc: "fails an example",
			Examples: []prop.Example{{Name: "fails", Run: func(f prop.Failer, _ target.Target) { f.Fatalf("the example fails") }}},
			Check: func(t *rapid.T, _ target.Target) {
				mu.Lock()
				defer mu.Unlock()
				readable = append(readable, knobReadable())
				shrinkTimes = append(shrinkTimes, flag.Lookup("rapid.shrinktime").Value.String())
			},
		},
		{
			ID: "prop/test-observer", Clauses: []string{"WIN-1"}, Capability: protocol.CapWindow, Doc: "watches the knob",
			Check: func(t *rapid.T, _ target.Target) {
				mu.Lock()
				defer mu.Unlock()
				turnable = append(turnable, knobTurnable())
			},
		},
	}
	var targets []target.Target
	for range 2 {
		tg, err := inprocess.New(server.Reference{})
		require.NoError(t, err)
		targets = append(targets, tg)
	}
	_, err := RunWorkers(context.Background(), targets, Options{Seed: 1, Checks: 20, Properties: props, Run: regexp.MustCompile(`^prop/test-`)})
	require.NoError(t, err)
	require.NotEmpty(t, turnable)
	require.NotEmpty(t, readable)
	assert.NotContains(t, turnable, true, "the knob could be turned while a check ran")
	assert.NotContains(t, readable, true, "a check could start while the knob was turned")
	off, err := time.ParseDuration(noShrinkTime)
	require.NoError(t, err)
	for _, s := range shrinkTimes {
		assert.Equal(t, off.String(), s, "the failing property's checks ran with shrinking on")
	}
}
