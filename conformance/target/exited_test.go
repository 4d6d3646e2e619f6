package target

import (
	"context"
	"strings"
	"testing"
	"time"
)

// exitingChild stands for a child that, once it reads a request, has
// written a second answer to the request before and its answer to this
// one, and exited: both the lines and the exit are there when the harness
// looks, in either order.
type exitingChild struct{ s *session }

func (c exitingChild) Write(p []byte) (int, error) {
	c.s.lines <- lineResult{line: []byte(`{"jsonrpc":"2.0","id":2,"result":{"tokens":[1]}}`)}
	c.s.lines <- lineResult{line: []byte(`{"jsonrpc":"2.0","id":3,"result":{}}`)}
	close(c.s.exited)
	return len(p), nil
}

func (exitingChild) Close() error { return nil }

// TestASecondAnswerBeforeAnExitIsCharged: a second answer to an earlier
// request that a child wrote before it exited is charged to that request
// (D-50), and the answer after it is this request's, whichever the harness
// notices first, the lines or the exit. Which of two ready channels a
// select takes is chance: each run is tried many times, and once it took
// the exit first and returned the second answer as the answer to the
// shutdown (the lifecycle's end failed where the case that sent the
// request should have).
func TestASecondAnswerBeforeAnExitIsCharged(t *testing.T) {
	for range 200 {
		s := &session{lines: make(chan lineResult, 2), exited: make(chan struct{}), lastMethod: "tokens.encode", lastID: 2}
		s.stdin = exitingChild{s}
		var ledger strayLedger
		ledger.sent(2, "tokens.encode")
		a, err := s.exchange(context.Background(), "shutdown", []byte("{}\n"), time.Minute, 3, false, &ledger)
		if err != nil {
			t.Fatal(err)
		}
		if id, _ := readAnswer(a.line).id(); id != 3 {
			t.Fatalf("the answer taken for id 3 is %s", a.line)
		}
		strays := ledger.take()
		if len(strays) != 1 || strays[0].ID != 2 || !strings.Contains(strays[0].Detail, "a second answer") {
			t.Fatalf("strays %+v, want the second answer charged to request 2", strays)
		}
	}
}
