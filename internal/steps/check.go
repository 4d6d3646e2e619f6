package steps

// Steps of the provider acceptance clauses (features/check, SPEC.md
// section 8e): recorded requests are given to conform check's checker and
// the Thens name what it must find. They talk to no implementation: what
// they check is conform check's reading of the clauses, so they hold for
// every implementation and fail only when the checker is wrong (D-56).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/internal/check"
	"github.com/convspec/convspec/internal/deviation"
)

// checkTable is the steps of features/check.
var checkTable = newTable([]def[checkSteps]{
	{given, `^the recorded requests:$`, (*checkSteps).recorded},
	{given, `^the recorded (OpenAI|Anthropic) requests:$`, (*checkSteps).recordedIn},
	{given, `^the requests are grouped by "([^"]*)"$`, (*checkSteps).groupBy},
	{when, `^conform check reads them$`, (*checkSteps).read},
	{thenEnds, `^conform check finds nothing$`, (*checkSteps).nothing},
	{thenEnds, `^conform check finds (ACC-\d+) in request (\d+) at (messages\[\d+\]|the request)$`, (*checkSteps).finds},
	{thenEnds, `^conform check finds exactly:$`, (*checkSteps).findsExactly},
})

// checkSteps is a scenario's recorded requests and what the checker found.
type checkSteps struct {
	records  string
	opts     check.Options
	findings []check.Located
}

func (cs *checkSteps) recorded(doc *godog.DocString) error {
	cs.records = doc.Content
	return nil
}

func (cs *checkSteps) recordedIn(format string, doc *godog.DocString) error {
	cs.opts.Format = strings.ToLower(format)
	return cs.recorded(doc)
}

func (cs *checkSteps) groupBy(pointer string) error {
	p, err := check.ParsePointer(pointer)
	cs.opts.GroupBy = p
	return err
}

func (cs *checkSteps) read() error {
	c := check.New(cs.opts)
	cs.findings = nil
	return check.Read("requests.jsonl", strings.NewReader(cs.records), func(r check.Record) {
		cs.findings = append(cs.findings, c.Add(r)...)
	})
}

func (cs *checkSteps) nothing() error {
	if len(cs.findings) > 0 {
		return fmt.Errorf("conform check found:\n%s", cs.list())
	}
	return nil
}

// finds wants a finding of clause in request n (its line) at the message
// or the request as a whole.
func (cs *checkSteps) finds(clause string, n int, at string) error {
	want := cs.key(clause, n, at)
	for _, f := range cs.findings {
		if cs.keyOf(f) == want {
			return nil
		}
	}
	return fmt.Errorf("conform check found no %s in request %d at %s; it found:\n%s", clause, n, at, cs.list())
}

// findsExactly wants the findings of a table | request | clause | at |,
// in order, and no other.
func (cs *checkSteps) findsExactly(t *godog.Table) error {
	var want, got []string
	for i, row := range t.Rows {
		if i == 0 {
			continue
		}
		if len(row.Cells) != 3 {
			return fmt.Errorf("the table wants | request | clause | at |, row %d has %d cells", i, len(row.Cells))
		}
		n, err := strconv.Atoi(row.Cells[0].Value)
		if err != nil {
			return fmt.Errorf("row %d: request %q is not a number", i, row.Cells[0].Value)
		}
		want = append(want, cs.key(row.Cells[1].Value, n, row.Cells[2].Value))
	}
	for _, f := range cs.findings {
		got = append(got, cs.keyOf(f))
	}
	if !slices.Equal(want, got) {
		// The two lists line by line, as the report compares them (D-72).
		return &deviation.Error{Text: fmt.Sprintf("conform check found:\n%s\nwant:\n%s", cs.list(), strings.Join(want, "\n")),
			Parts: deviation.Parts{Got: strings.Join(got, "\n"), Want: strings.Join(want, "\n")}}
	}
	return nil
}

func (cs *checkSteps) key(clause string, n int, at string) string {
	if at == "the request" {
		at = "request"
	}
	return fmt.Sprintf("requests.jsonl:%d %s %s", n, clause, at)
}

func (cs *checkSteps) keyOf(f check.Located) string {
	at := "request"
	if f.Index >= 0 {
		at = fmt.Sprintf("messages[%d]", f.Index)
	}
	return fmt.Sprintf("%s %s %s", f.Where, f.Clause, at)
}

func (cs *checkSteps) list() string {
	if len(cs.findings) == 0 {
		return "  nothing"
	}
	lines := make([]string, len(cs.findings))
	for i, f := range cs.findings {
		lines[i] = "  " + f.String()
	}
	return strings.Join(lines, "\n")
}
