package mutants_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
)

// twoFaultsEngine serves two trimmers that claim system: one crashes on
// every non-empty conversation (a conversion error in the library), the
// other drops the system prompt.
type twoFaultsEngine struct{ server.Reference }

func (twoFaultsEngine) Trimmers() []server.Trimmer {
	decl := func(name string) protocol.TrimmerDecl {
		return protocol.TrimmerDecl{Name: name, Bound: protocol.BoundMessages,
			Guarantees: []string{protocol.GuaranteeSubsequence, protocol.GuaranteeSystem}}
	}
	return []server.Trimmer{
		{Decl: decl("converts"), Trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
			if len(msgs) > 0 {
				return nil, errors.New("TypeError: cannot convert a message of role system")
			}
			return msgs, nil
		}},
		{Decl: decl("drops-system"), Trim: server.NewestWithin(func(m []message.Message) int { return len(m) }, 0)},
	}
}

// TestTrimmerCrashIsItsOwnCause: a trimmer's crash is reported under
// ANY-9 as a cause of its own, never merged into the cause of another
// trimmer's real deviation of the guarantee checked (the system prompt
// dropped), and both trimmers are reported by the same scenario.
func TestTrimmerCrashIsItsOwnCause(t *testing.T) {
	tg, err := inprocess.New(twoFaultsEngine{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	results, err := runner.Run(context.Background(), tg, runner.Options{Run: regexp.MustCompile(`^(ANY-3/|prop/trimmer-keeps-system$)`), Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	run := report.Run{Cases: report.Judge(results, nil, false)}
	causes := run.Causes()
	crash, system := -1, -1
	for i, c := range causes {
		for _, s := range c.Shapes {
			if strings.Contains(s, "crashed") {
				crash = i
			} else if !strings.Contains(strings.Join(c.Clauses, " "), "ANY-9") {
				system = i
			}
		}
	}
	if crash < 0 || system < 0 || crash == system {
		for _, c := range causes {
			t.Logf("cause %v %q", c.Clauses, c.Shapes)
		}
		t.Fatalf("want the crash and the dropped system prompt as two causes; crash cause %d, system cause %d", crash, system)
	}
	if !slices.Equal(causes[crash].Clauses, []string{"ANY-9"}) {
		t.Errorf("the crash cause is under %v, want ANY-9 alone", causes[crash].Clauses)
	}
	both := false
	for _, r := range results {
		if strings.Contains(r.Detail, `"converts"`) && strings.Contains(r.Detail, `"drops-system"`) {
			both = true
		}
	}
	if !both {
		t.Error("no result reports both failing trimmers: a check stopped at the first")
	}
}

// twoLongFaultsEngine serves two trimmers that claim bound and break it
// in different ways, each only on conversations longer than any edge
// example (so that the random checks, not the edges, find them): one
// crashes, the other returns its input unchanged.
type twoLongFaultsEngine struct{ server.Reference }

func (twoLongFaultsEngine) Trimmers() []server.Trimmer {
	decl := func(name string) protocol.TrimmerDecl {
		return protocol.TrimmerDecl{Name: name, Bound: protocol.BoundMessages,
			Guarantees: []string{protocol.GuaranteeSubsequence, protocol.GuaranteeBound}}
	}
	honest := server.NewestWithin(func(m []message.Message) int { return len(m) }, 0)
	return []server.Trimmer{
		{Decl: decl("crashes-when-long"), Trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
			if len(msgs) >= 12 {
				return nil, errors.New("RangeError: Maximum call stack size exceeded")
			}
			return honest(msgs, limit)
		}},
		{Decl: decl("keeps-all-when-long"), Trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
			if len(msgs) >= 12 {
				return msgs, nil
			}
			return honest(msgs, limit)
		}},
	}
}

// TestEachTrimmerCheckedOnItsOwn: a trimmer property's random checks run
// on each declared trimmer on its own (D-75), so two trimmers failing the
// same property in different ways are both reported, each a deviation
// under its own clause and a cause of its own — the crash under ANY-9, the
// overshoot under ANY-6 — and neither hides the other. Nothing is shrunk:
// each subject is checked, and shrunk, on its own (internal/runner), and
// shrinking both counterexamples took 7 s of CPU for what the test does not
// look at (D-87).
func TestEachTrimmerCheckedOnItsOwn(t *testing.T) {
	tg, err := inprocess.New(twoLongFaultsEngine{})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	results, err := runner.Run(context.Background(), tg, runner.Options{Run: regexp.MustCompile(`^prop/trimmer-bound$`), Seed: 1, NoShrink: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Outcome != result.Failed {
		t.Fatalf("want prop/trimmer-bound failed, got %+v", results)
	}
	r := results[0]
	var clauses []string
	for _, d := range r.Deviations {
		clauses = append(clauses, d.Clause)
	}
	slices.Sort(clauses)
	if !slices.Equal(clauses, []string{"ANY-6", "ANY-9"}) {
		t.Errorf("deviations under %v, want one under ANY-6 and one under ANY-9\n%s", clauses, r.Detail)
	}
	for _, name := range []string{`"crashes-when-long"`, `"keeps-all-when-long"`} {
		if !strings.Contains(r.Detail, name) {
			t.Errorf("the detail does not name trimmer %s\n%s", name, r.Detail)
		}
	}
	run := report.Run{Cases: report.Judge(results, nil, false)}
	if causes := run.Causes(); len(causes) != 2 {
		for _, c := range causes {
			t.Logf("cause %v %q", c.Clauses, c.Shapes)
		}
		t.Errorf("%d causes, want the crash and the overshoot as two", len(causes))
	}
}

// TestNegativeNativeCountIsTheCountersDeviation: a native counter that
// counts below zero is reported under ANY-13 by every trimmer property
// whose limits are drawn from its counts — the counter's deviation, with
// the messages counted — never as a range the harness's generator could
// not draw from (a panic of the property, blamed on the property's own
// clause).
func TestNegativeNativeCountIsTheCountersDeviation(t *testing.T) {
	m, ok := mutants.Lookup("trimmer-native-counter-negative")
	if !ok {
		t.Fatal("the catalogue has no trimmer-native-counter-negative")
	}
	tg, err := inprocess.New(m.Engine)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	results, err := runner.Run(context.Background(), tg, runner.Options{Run: regexp.MustCompile(`^prop/trimmer-(subsequence|bound)$`), Seed: 1, Checks: 10, NoShrink: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 2 {
		t.Fatalf("want 2 results, got %d", len(results))
	}
	for _, r := range results {
		if r.Outcome != result.Failed {
			t.Errorf("%s: %s, want failed", r.ID, r.Outcome)
			continue
		}
		if len(r.Deviations) == 0 {
			t.Errorf("%s: failed without a deviation: %s", r.ID, r.Detail)
		}
		if strings.Contains(r.Detail, "panic") {
			t.Errorf("%s: the harness panicked on the counter's answer:\n%s", r.ID, r.Detail)
		}
		for _, d := range r.Deviations {
			if d.Clause != "ANY-13" || !strings.Contains(d.Detail, "below zero") {
				t.Errorf("%s: a deviation under %s, want ANY-13 naming the count below zero: %s", r.ID, d.Clause, d.Detail)
			}
		}
	}
}
