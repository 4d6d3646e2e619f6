package target

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestScaledTimeout(t *testing.T) {
	for _, tc := range []struct {
		bytes int
		want  time.Duration
	}{
		{0, 10 * time.Second},
		{1<<20 - 1, 10 * time.Second},
		{1 << 20, 20 * time.Second},
		{4<<20 + 17, 50 * time.Second},
	} {
		assert.Equal(t, tc.want, scaledTimeout(10*time.Second, tc.bytes), "%d bytes", tc.bytes)
	}
}

// An awake timer ends (never earlier than its wall time: awake time never
// runs ahead of the wall clock), and one that is stopped never fires.
func TestAfterAwake(t *testing.T) {
	start := time.Now()
	expired, stop := afterAwake(30 * time.Millisecond)
	<-expired
	stop()
	stop() // twice is harmless
	assert.GreaterOrEqual(t, time.Since(start), 30*time.Millisecond)

	expired, stop = afterAwake(time.Hour)
	stop()
	time.Sleep(60 * time.Millisecond) // the ticker would have ticked
	select {
	case <-expired:
		t.Fatal("a stopped timer fired")
	default:
	}
}
