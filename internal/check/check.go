// Package check judges recorded provider requests without an adapter
// (SPEC.md section 8e, `conform check`): each request a provider would
// refuse (ACC-1 – ACC-9), and each trim between two requests of one
// conversation that broke an invariant of any trimmer (ACC-10 – ACC-13).
// It streams: a Checker keeps per conversation only what it needs of the
// previous request, and per clause only a count and the first examples
// (D-57, D-58).
package check

import (
	"errors"
	"fmt"
	"hash/maphash"
	"strings"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/spec"
)

// Options tune a Checker.
type Options struct {
	// Format is the declared format of every request (FormatOpenAI,
	// FormatAnthropic), or FormatEither to detect it per request.
	Format string
	// Body points at the request body within each record; empty: the
	// record is the body.
	Body Pointer
	// GroupBy points at the conversation key within each record; nil:
	// requests are grouped by the messages they share (D-58).
	GroupBy Pointer
	// MaxConversations bounds the conversations followed at once; 0 means
	// DefaultMaxConversations.
	MaxConversations int
	// Examples is how many findings each clause's result shows; 0 means
	// DefaultExamples.
	Examples int
}

// DefaultExamples is how many findings a clause's result lists.
const DefaultExamples = 20

// ReadCaseID is the case of the records that could not be read.
const ReadCaseID = "check/read"

// CaseID is the case of a clause.
func CaseID(clause string) string { return "check/" + clause }

// Located is a finding in its record.
type Located struct {
	Where string
	Finding
}

func (l Located) String() string {
	if l.Clause == "" {
		return l.Where + ": " + l.Detail
	}
	return l.Where + " " + l.Finding.String()
}

// tally is what a Checker keeps of one clause.
type tally struct {
	findings, requests int
	examples           []string
	// first is the first finding's detail, without its place: what the
	// reports group causes by.
	first string
}

// Checker checks records one at a time.
type Checker struct {
	opts  Options
	seed  maphash.Seed
	convs *conversations
	by    map[string]*tally // case ID → tally

	// Requests counts the chat requests checked; Skipped the records that
	// are not chat requests (no "messages"); Unreadable the records that
	// could not be read or parsed.
	Requests, Skipped, Unreadable int
}

// New returns a Checker.
func New(opts Options) *Checker {
	if opts.Examples <= 0 {
		opts.Examples = DefaultExamples
	}
	return &Checker{opts: opts, seed: maphash.MakeSeed(), convs: newConversations(opts.MaxConversations), by: map[string]*tally{}}
}

// Add checks one record and returns its findings.
func (c *Checker) Add(rec Record) []Located {
	where := rec.Where()
	if rec.Err != nil {
		return c.unreadable(where, rec.Err)
	}
	body := rec.Body
	if len(c.opts.Body) > 0 {
		var err error
		if body, err = bodyAt(rec.Body, c.opts.Body); err != nil {
			return c.unreadable(where, err)
		}
	}
	r, err := parseRequest(body, c.opts.Format)
	if errors.Is(err, errNotChat) {
		c.Skipped++
		return nil
	}
	if err != nil {
		return c.unreadable(where, err)
	}
	c.Requests++
	findings := acceptance(r)

	hashes := make([]uint64, len(r.messages))
	for i, m := range r.messages {
		hashes[i] = c.hash(m)
	}
	key, keyed := "", c.opts.GroupBy != nil
	if keyed {
		v, ok := c.opts.GroupBy.Get(rec.Body)
		if !ok {
			keyed = false // no key: checked alone, neither grouped nor followed
		} else {
			key = string(v)
		}
	}
	if keyed || c.opts.GroupBy == nil {
		conv := c.convs.find(key, keyed, r, hashes)
		if conv != nil {
			trims, gone := trimFindings(conv.prev, r, hashes, conv.wasEvicted)
			findings = append(findings, trims...)
			conv.evict(gone)
		}
		c.convs.update(conv, key, keyed, takeSnapshot(where, r, hashes))
	}

	out := make([]Located, len(findings))
	counted := map[string]bool{}
	for i, f := range findings {
		out[i] = Located{Where: where, Finding: f}
		t := c.tally(CaseID(f.Clause))
		t.findings++
		if !counted[f.Clause] {
			counted[f.Clause] = true
			t.requests++
		}
		if len(t.examples) < c.opts.Examples {
			t.examples = append(t.examples, out[i].String())
		}
		if t.first == "" {
			t.first = f.Detail
		}
	}
	return out
}

func (c *Checker) unreadable(where string, err error) []Located {
	c.Unreadable++
	l := Located{Where: where, Finding: Finding{Index: -1, Detail: err.Error()}}
	t := c.tally(ReadCaseID)
	t.findings++
	t.requests++
	if len(t.examples) < c.opts.Examples {
		t.examples = append(t.examples, l.String())
	}
	if t.first == "" {
		t.first = err.Error()
	}
	return []Located{l}
}

func (c *Checker) tally(id string) *tally {
	t := c.by[id]
	if t == nil {
		t = &tally{}
		c.by[id] = t
	}
	return t
}

// hash identifies a message up to JSON-equality as MSG-2 reads it for a
// kept message: by its compact form (EST-3), so that a pretty-printed log
// compares as a compact one. Text without white space between its tokens
// is hashed as it is: one agent serializes a message the same way in every
// request, escapes included, and Compact (a copy) was most of what
// checking a request cost (BENCHMARKS.md, "conform check").
func (c *Checker) hash(m message.Message) uint64 {
	raw := m.Raw()
	if looksCompact(raw) {
		return maphash.Bytes(c.seed, raw)
	}
	if compact, err := message.Compact(raw); err == nil {
		return maphash.String(c.seed, compact)
	}
	return maphash.Bytes(c.seed, raw)
}

// looksCompact says whether a valid JSON text has no white space between
// its tokens.
func looksCompact(v []byte) bool {
	in, escaped := false, false
	for _, b := range v {
		switch {
		case escaped:
			escaped = false
		case in && b == '\\':
			escaped = true
		case b == '"':
			in = !in
		case !in && (b == ' ' || b == '\t' || b == '\n' || b == '\r'):
			return false
		}
	}
	return true
}

// Clauses are the clauses conform check reports, in the order of SPEC.md.
func Clauses() []spec.Clause {
	var out []spec.Clause
	for _, cl := range spec.Clauses() {
		if strings.HasPrefix(cl.ID, "ACC-") {
			out = append(out, cl)
		}
	}
	return out
}

// Cases are the cases of a check, every one whether it fails or not, so
// that a baseline can name them before they fail.
func Cases() []result.Case {
	// A record that cannot be read is malformed input: level validation
	// (D-42), of the checker's own capability, so that the verdict table
	// has a row for it.
	cs := []result.Case{{ID: ReadCaseID, Kind: result.Check, Name: "every record is a readable request",
		Capability: "check", Level: "validation"}}
	for _, cl := range Clauses() {
		cs = append(cs, result.Case{ID: CaseID(cl.ID), Kind: result.Check, Name: cl.Title,
			Clauses: []string{cl.ID}, Capability: cl.Capability, Level: cl.Level})
	}
	return cs
}

// Results are the check's outcome, one result a case: failed with its
// examples when a record broke it, passed otherwise.
func (c *Checker) Results() []result.Result {
	var out []result.Result
	for _, k := range Cases() {
		r := result.Result{Case: k, Outcome: result.Passed}
		if t := c.by[k.ID]; t != nil {
			r.Outcome = result.Failed
			if k.ID == ReadCaseID {
				r.Detail = fmt.Sprintf("%d %s could not be read as %s", t.requests, plural(t.requests, "record", "records"), plural(t.requests, "a request", "requests"))
			} else {
				r.Detail = fmt.Sprintf("%d %s %s (%d %s)", t.requests, plural(t.requests, "request breaks", "requests break"),
					k.Clauses[0], t.findings, plural(t.findings, "finding", "findings"))
			}
			if t.findings > len(t.examples) {
				r.Detail += fmt.Sprintf("; the first %d:", len(t.examples))
			} else {
				r.Detail += ":"
			}
			r.Detail += "\n" + strings.Join(t.examples, "\n")
			clause := ""
			if len(k.Clauses) > 0 {
				clause = k.Clauses[0]
			}
			r.Deviations = []result.Deviation{{Clause: clause, Detail: t.first + "\n" + r.Detail}}
		}
		out = append(out, r)
	}
	return out
}
