package runner_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/properties"
	"github.com/convspec/convspec/internal/runner"
)

// TestSummaryOfADocumentConversation: an implementation that summarizes
// where SUM-6 says not to, in a scenario whose conversation is a document
// (no labelled messages), fails under SUM-6 with what differs, not with
// the suite's own "assignment to entry in nil map".
func TestSummaryOfADocumentConversation(t *testing.T) {
	tg, err := inprocess.New(mutantNamed(t, "summary-of-tool-results").Engine)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := runner.Run(context.Background(), tg, runner.Options{Seed: 1, Properties: []properties.Property{},
		Run: regexp.MustCompile(`^SUM-6/`)})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, r := range rs {
		if strings.Contains(r.Detail, "nil map") || strings.Contains(r.Detail, "panic") {
			t.Errorf("%s: the suite failed, not the implementation:\n%s", r.ID, r.Detail)
		}
		if r.Outcome == runner.Failed {
			failed++
		}
	}
	if failed == 0 {
		t.Fatalf("no SUM-6 scenario fails against summary-of-tool-results: %+v", rs)
	}
}

func mutantNamed(t *testing.T, name string) mutants.Mutant {
	t.Helper()
	m, ok := mutants.Lookup(name)
	if !ok {
		t.Fatalf("no mutant %s", name)
	}
	return m
}
