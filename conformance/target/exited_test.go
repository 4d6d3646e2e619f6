package target

import (
	"context"
	"strconv"
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

// TestEveryRequestThatDrewAStrayIsNamed: past the lines a Process keeps
// whole, a stray is still kept when no kept line names its request, so
// that every request that drew one fails its case (D-97: which cases fail
// must not depend on which ran first); the others are counted.
func TestEveryRequestThatDrewAStrayIsNamed(t *testing.T) {
	var ledger strayLedger
	for id := int64(1); id <= 3; id++ {
		ledger.sent(id, "history.prune")
	}
	answer := func(id int64) []byte {
		return []byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) + `,"result":{}}`)
	}
	for range maxStrays + 10 {
		ledger.record(answer(1), 4, 3, "after the answer to request 3")
	}
	ledger.record(answer(2), 4, 3, "after the answer to request 3")
	ledger.record(answer(2), 4, 3, "after the answer to request 3")
	strays := ledger.take()
	named := map[int64]int{}
	for _, s := range strays {
		named[s.ID]++
	}
	if named[1] != maxStrays || named[2] != 1 || len(strays) != maxStrays+1 {
		t.Fatalf("lines kept per request %v (%d in all), want %d for request 1 and 1 for request 2", named, len(strays), maxStrays)
	}
	if !strings.Contains(strays[len(strays)-1].Detail, "(and 11 more stray lines)") {
		t.Errorf("the last kept line does not count the others: %s", strays[len(strays)-1].Detail)
	}
}
