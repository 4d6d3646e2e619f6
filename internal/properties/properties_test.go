package properties

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
	refwindow "github.com/convspec/convspec/reference/window"
	"github.com/convspec/convspec/spec"
)

func reference(t *testing.T) target.Target {
	t.Helper()
	tg, err := inprocess.New(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestReferenceHoldsEveryProperty runs every property against the
// built-in reference.
func TestReferenceHoldsEveryProperty(t *testing.T) {
	tg := reference(t)
	for _, p := range every() {
		t.Run(p.ID, func(t *testing.T) {
			for _, ex := range p.Examples {
				ex.Run(t, tg)
			}
			if p.Check != nil {
				rapid.Check(t, func(rt *rapid.T) { p.Check(rt, tg) })
			}
		})
	}
}

var kebabID = regexp.MustCompile(`^prop/[a-z0-9]+(-[a-z0-9]+)*$`)

func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range every() {
		if !kebabID.MatchString(p.ID) {
			t.Errorf("%q: an ID is prop/ followed by a kebab-case name", p.ID)
		}
		if seen[p.ID] {
			t.Errorf("%s: ID used twice", p.ID)
		}
		seen[p.ID] = true
		if len(p.Clauses) == 0 {
			t.Errorf("%s: names no clause", p.ID)
		}
		for _, id := range p.Clauses {
			c, ok := spec.Lookup(id)
			switch {
			case !ok:
				t.Errorf("%s: clause %s is not in SPEC.md", p.ID, id)
			case c.Capability != strings.Split(p.Capability, "/")[0] && !messageModel(id) && !(p.Capability == protocol.CapTokens && id == "TOK-1"):
				// trimmer/<guarantee> is capability trimmer; tokens.encode
				// (capability tokens.cl100k) checks TOK-1, a clause of the
				// budget section.
				t.Errorf("%s: clause %s belongs to capability %q, the property to %q", p.ID, id, c.Capability, p.Capability)
			}
		}
		if p.Doc == "" || p.Check == nil && len(p.Examples) == 0 {
			t.Errorf("%s: needs a Doc and a Check or examples", p.ID)
		}
	}
}

// messageModel reports whether a clause is one of the message model's
// (MSG, CLS, UNIT), which every capability uses (SPEC.md §1–2), so that a
// property of any capability may check it.
func messageModel(id string) bool {
	for _, prefix := range []string{"MSG-", "CLS-", "UNIT-"} {
		if strings.HasPrefix(id, prefix) {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------
// Faulty targets: each property must catch the bug it exists for

// faulty is the reference with one bug, applied to what it returns.
type faulty struct {
	ref     target.Target
	windows map[string]protocol.WindowConfig
	history map[string][]json.RawMessage

	config   func(json.RawMessage) json.RawMessage // rewrites the config sent
	created  func(*protocol.WindowCreateResult)
	trim     func(ctx context.Context, f *faulty, c protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult)
	estimate func(msgs []message.Message) int
	refuse   func(p protocol.WindowTrimParams) error // an error instead of a trim
	// answer rewrites the reference's answer to any other method.
	answer func(method string, params any, result json.RawMessage) json.RawMessage
}

func (f *faulty) Info() target.Info { return f.ref.Info() }
func (f *faulty) Close() error      { return nil }

func (f *faulty) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	switch method {
	case protocol.MethodWindowCreate:
		p := params.(protocol.WindowCreateParams)
		if f.config != nil {
			p.Config = f.config(p.Config)
		}
		r, err := target.CreateWindow(ctx, f.ref, p.Config)
		if err != nil {
			return nil, err
		}
		f.windows[r.Window] = r.Config
		if f.created != nil {
			f.created(&r)
		}
		r.Warnings = nonNil(r.Warnings)
		return json.Marshal(r)
	case protocol.MethodWindowTrim:
		p := params.(protocol.WindowTrimParams)
		if f.refuse != nil {
			if err := f.refuse(p); err != nil {
				return nil, err
			}
		}
		r, err := target.Trim(ctx, f.ref, p.Window, p.Messages)
		if err != nil {
			return nil, err
		}
		if f.trim != nil {
			f.trim(ctx, f, f.windows[p.Window], p, &r)
		}
		r.Trimmed, r.Evicted, r.Warnings = nonNil(r.Trimmed), nonNil(r.Evicted), nonNil(r.Warnings)
		return json.Marshal(r)
	case protocol.MethodWindowEstimate:
		p := params.(protocol.WindowEstimateParams)
		if f.estimate == nil {
			break
		}
		msgs, err := message.FromRaw(p.Messages)
		if err != nil {
			return nil, err
		}
		return json.Marshal(protocol.WindowEstimateResult{Tokens: f.estimate(msgs)})
	}
	res, err := f.ref.Call(ctx, method, params)
	if err == nil && f.answer != nil {
		res = f.answer(method, params, res)
	}
	return res, err
}

// zones computes, for a trim of msgs, the reference's cut points along
// the reference's units.
func zones(c protocol.WindowConfig, msgs []json.RawMessage) model.Plan {
	w := model.Window{Max: c.MaxMessages, First: c.PreserveFirstN, Last: c.PreserveLastN}
	parsed, err := message.FromRaw(msgs)
	if err != nil {
		return model.PlanCount(w, len(msgs))
	}
	units, _ := message.Structure(parsed)
	us := make([][2]int, len(units))
	for i, u := range units {
		us[i] = [2]int{u.Start, u.End}
	}
	return model.PlanUnits(w, us, len(msgs))
}

func pick(msgs []json.RawMessage, idx ...[]int) []json.RawMessage {
	out := []json.RawMessage{}
	for _, list := range idx {
		for _, i := range list {
			out = append(out, msgs[i])
		}
	}
	return out
}

// contentChars is the reference's character count with count replacing
// how one message's content is measured.
func contentChars(m message.Message) int { return m.ContentLength() }

type expect struct {
	property string
	clauses  []string // the failure must be reported under one of these
}

type variant struct {
	name   string
	bug    string
	build  func(f *faulty)
	caught []expect
}

var variants = []variant{
	{
		name: "drop-last-tail",
		bug:  "drops the last message of trimmed whenever it trims",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, c protocol.WindowConfig, _ protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				if len(r.Evicted) > 0 && c.PreserveLastN > 0 {
					r.Trimmed = r.Trimmed[:len(r.Trimmed)-1]
				}
			}
		},
		caught: []expect{{"prop/window-head-and-tail-kept", []string{"WIN-2"}}, {"prop/window-matches-plan", []string{"WIN-2"}}},
	},
	{
		name: "head-tail-overlap",
		bug:  "takes the tail as the last t messages even when they overlap the head, so messages appear twice",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, c protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				n, h, t := len(p.Messages), c.PreserveFirstN, c.PreserveLastN
				if zp := zones(c, p.Messages); zp.HeadOnly && n < h+t {
					r.Trimmed = append(pick(p.Messages, gen.Indices(min(h, n))), p.Messages[n-min(t, n):]...)
				}
			}
		},
		caught: []expect{{"prop/window-order-no-duplicates", []string{"WIN-5"}}, {"prop/window-matches-plan", []string{"WIN-2"}}},
	},
	{
		name: "evict-newest-middle",
		bug:  "keeps the oldest middle messages and evicts the most recent ones",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, c protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				z := zones(c, p.Messages)
				if !z.Trims || z.HeadOnly {
					return
				}
				n := z.N
				r.Trimmed = pick(p.Messages, gen.Indices(z.Head+z.Keep), gen.IndexRange(n-z.Tail, n))
				r.Evicted = pick(p.Messages, gen.IndexRange(z.Head+z.Keep, n-z.Tail))
			}
		},
		caught: []expect{{"prop/window-matches-plan", []string{"WIN-4"}}},
	},
	{
		name: "keep-one-extra",
		bug:  "keeps max − h − t + 1 middle messages, one over the cap",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, c protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				z := zones(c, p.Messages)
				if !z.Trims || z.HeadOnly {
					return
				}
				last := r.Evicted[len(r.Evicted)-1]
				r.Evicted = r.Evicted[:len(r.Evicted)-1]
				r.Trimmed = append(append(append([]json.RawMessage{}, r.Trimmed[:z.Head]...), last), r.Trimmed[z.Head:]...)
			}
		},
		caught: []expect{{"prop/window-bound", []string{"WIN-6"}}, {"prop/window-matches-plan", []string{"WIN-4"}}},
	},
	{
		name: "evicted-off-by-one",
		bug:  "slices evicted from h + 1, so the oldest middle message is in neither list",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, _ protocol.WindowConfig, _ protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				if len(r.Evicted) > 0 {
					r.Evicted = r.Evicted[1:]
				}
			}
		},
		caught: []expect{{"prop/window-partition", []string{"WIN-5"}}, {"prop/window-matches-plan", []string{"WIN-5"}}},
	},
	{
		name: "fails-on-empty",
		bug:  "answers a trim of an empty conversation with an internal error (reads msgs[len(msgs)-1])",
		build: func(f *faulty) {
			f.refuse = func(p protocol.WindowTrimParams) error {
				if len(p.Messages) == 0 {
					return protocol.NewError(protocol.KindInternalError, "runtime error: index out of range [-1]")
				}
				return nil
			}
		},
		caught: []expect{{"prop/window-under-cap-identity", []string{"WIN-1"}}},
	},
	{
		name: "metrics-input-tokens",
		bug:  "reports estimatedTokens of the untrimmed input instead of what is kept",
		build: func(f *faulty) {
			f.trim = func(ctx context.Context, f *faulty, _ protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				if tokens, err := target.Estimate(ctx, f.ref, p.Messages); err == nil {
					r.Metrics.EstimatedTokens = tokens
				}
			}
		},
		caught: []expect{{"prop/window-metrics", []string{"MET-1"}}},
	},
	{
		name: "tail-zero-keeps-all",
		bug:  "takes the tail with slice(-t), which for t = 0 is the whole conversation",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, c protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				z := zones(c, p.Messages)
				if !z.Trims || c.PreserveLastN != 0 {
					return
				}
				all := gen.Indices(z.N) // messages.slice(-0)
				r.Trimmed = pick(p.Messages, gen.Indices(z.Head), gen.IndexRange(z.N-z.Keep, z.N), all)
			}
		},
		caught: []expect{{"prop/window-bound", []string{"WIN-6"}}, {"prop/window-matches-plan", []string{"WIN-2"}}},
	},
	{
		name: "cuts-by-content",
		bug:  "builds trimmed as the input minus every message equal to an evicted one",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, _ protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				kept := []json.RawMessage{}
			next:
				for _, m := range p.Messages {
					for _, e := range r.Evicted {
						if jsoncmp.Equal(m, e) {
							continue next
						}
					}
					kept = append(kept, m)
				}
				r.Trimmed = kept
			}
		},
		caught: []expect{{"prop/window-cuts-by-position", []string{"WIN-5"}}},
	},
	{
		name: "accumulates-history",
		bug:  "keeps what it kept last time and prepends it to the next trim's input",
		build: func(f *faulty) {
			f.trim = func(ctx context.Context, f *faulty, _ protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				full := append(append([]json.RawMessage{}, f.history[p.Window]...), p.Messages...)
				if res, err := target.Trim(ctx, f.ref, p.Window, full); err == nil {
					*r = res
				}
				f.history[p.Window] = r.Trimmed
			}
		},
		caught: []expect{{"prop/window-idempotent", []string{"WIN-7"}}},
	},
	{
		name: "omitempty-content",
		bug:  "drops \"content\": null from the messages it returns (a Go omitempty)",
		build: func(f *faulty) {
			strip := func(list []json.RawMessage) {
				for i, m := range list {
					var members map[string]json.RawMessage
					if json.Unmarshal(m, &members) == nil && string(members["content"]) == "null" {
						delete(members, "content")
						list[i], _ = json.Marshal(members)
					}
				}
			}
			f.trim = func(_ context.Context, _ *faulty, _ protocol.WindowConfig, _ protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				strip(r.Trimmed)
				strip(r.Evicted)
			}
		},
		caught: []expect{{"prop/window-round-trip", []string{"MSG-2"}}},
	},
	{
		name: "no-trim-warning",
		bug:  "never warns preserve_exceeds_max on a trim (only at creation)",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, _ protocol.WindowConfig, _ protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				r.Warnings = nil
			}
		},
		caught: []expect{{"prop/window-warning", []string{"WIN-3"}}},
	},
	{
		name: "trims-at-cap",
		bug:  "tests n < max for the no-op path, so a conversation of exactly max messages is trimmed (and warned about)",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, c protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				if n := len(p.Messages); n > 0 && n == c.MaxMessages && c.PreserveFirstN+c.PreserveLastN >= c.MaxMessages {
					r.Warnings = append(r.Warnings, protocol.Warning{Code: codePreserveExceedsMax, Message: "preserve settings exceed max"})
				}
			}
		},
		caught: []expect{{"prop/window-under-cap-identity", []string{"WIN-8"}}, {"prop/window-warning", []string{"WIN-8"}}},
	},
	{
		name: "zero-max-trims",
		bug:  "treats max_messages 0 as a cap to trim to head and tail instead of disabling trimming",
		build: func(f *faulty) {
			f.trim = func(_ context.Context, _ *faulty, c protocol.WindowConfig, p protocol.WindowTrimParams, r *protocol.WindowTrimResult) {
				if c.MaxMessages != 0 {
					return
				}
				n := len(p.Messages)
				h := min(c.PreserveFirstN, n)
				t := min(c.PreserveLastN, n-h)
				r.Trimmed = pick(p.Messages, gen.Indices(h), gen.IndexRange(n-t, n))
				r.Evicted = pick(p.Messages, gen.IndexRange(h, n-t))
			}
		},
		caught: []expect{{"prop/window-under-cap-identity", []string{"CFG-5"}}},
	},
	{
		name: "defaults-not-applied",
		bug:  "leaves absent or null config members at zero instead of 100 / false / 1 / 20",
		build: func(f *faulty) {
			f.config = func(raw json.RawMessage) json.RawMessage {
				members := map[string]json.RawMessage{}
				_ = json.Unmarshal(raw, &members)
				for _, name := range []string{"max_messages", "preserve_first_n", "preserve_last_n"} {
					if v, ok := members[name]; !ok || string(v) == "null" {
						members[name] = json.RawMessage("0")
					}
				}
				out, _ := json.Marshal(members)
				return out
			}
		},
		caught: []expect{{"prop/window-effective-config", []string{"CFG-1", "CFG-2"}}},
	},
	{
		name: "no-create-warning",
		bug:  "does not warn preserve_exceeds_max when the window is created",
		build: func(f *faulty) {
			f.created = func(r *protocol.WindowCreateResult) { r.Warnings = nil }
		},
		caught: []expect{{"prop/window-create-warning", []string{"CFG-6"}}},
	},
	{
		name: "budget-count-priming",
		bug:  "adds the 3 tokens of OpenAI's reply priming to the count of every list (the cookbook's num_tokens_from_messages), so counts are not additive",
		build: func(f *faulty) {
			f.answer = func(method string, _ any, result json.RawMessage) json.RawMessage {
				if method != protocol.MethodBudgetCount && method != protocol.MethodBudgetCheck {
					return result
				}
				var r map[string]any
				_ = json.Unmarshal(result, &r)
				r["tokens"] = r["tokens"].(float64) + 3
				out, _ := json.Marshal(r)
				return out
			}
		},
		caught: []expect{{"prop/budget-count-additive", []string{"TOK-3"}}},
	},
	{
		name: "budget-removed-one-based",
		bug:  "reports the removed positions counting from 1",
		build: func(f *faulty) {
			f.answer = func(method string, _ any, result json.RawMessage) json.RawMessage {
				if method != protocol.MethodBudgetPrune {
					return result
				}
				var r protocol.BudgetPruneResult
				_ = json.Unmarshal(result, &r)
				for i := range r.Removed {
					r.Removed[i]++
				}
				out, _ := json.Marshal(r)
				return out
			}
		},
		caught: []expect{{"prop/budget-prune-subsequence", []string{"PRN-1"}}},
	},
	{
		name:   "estimate-floor",
		bug:    "rounds the estimate down (integer division) instead of up",
		build:  estimator(contentChars, func(total int, _ []int) int { return total / 4 }),
		caught: []expect{{"prop/window-estimate", []string{"EST-1"}}},
	},
	{
		name:   "estimate-per-message",
		bug:    "rounds up per message and sums, instead of dividing the total once",
		build:  estimator(contentChars, perMessage),
		caught: []expect{{"prop/window-estimate", []string{"EST-1"}}},
	},
	{
		name: "estimate-utf8-bytes",
		bug:  "counts UTF-8 bytes instead of UTF-16 code units (Go's len)",
		build: estimator(func(m message.Message) int {
			return len(counted(m))
		}, ceilTotal),
		caught: []expect{{"prop/window-estimate", []string{"EST-2", "EST-3"}}},
	},
	{
		name: "estimate-code-points",
		bug:  "counts code points instead of UTF-16 code units (Python's len), so an emoji counts 1",
		build: estimator(func(m message.Message) int {
			return len([]rune(counted(m)))
		}, ceilTotal),
		caught: []expect{{"prop/window-estimate", []string{"EST-2", "EST-3"}}},
	},
	{
		name: "estimate-escaped-text",
		bug:  "counts a string content's JSON text as written, escapes and all, instead of its value",
		build: estimator(func(m message.Message) int {
			c := strings.TrimSpace(string(m.Content()))
			if strings.HasPrefix(c, `"`) {
				return message.Length(c) - 2
			}
			return m.ContentLength()
		}, ceilTotal),
		caught: []expect{{"prop/window-estimate", []string{"EST-2"}}},
	},
	{
		name: "estimate-counts-role",
		bug:  "counts the role as well as the content",
		build: estimator(func(m message.Message) int {
			return m.ContentLength() + message.Length(m.Role())
		}, ceilTotal),
		caught: []expect{{"prop/window-estimate", []string{"EST-5"}}},
	},
	{
		name: "estimate-null-is-four",
		bug:  "counts null content as JSON.stringify(null), 4 characters",
		build: estimator(func(m message.Message) int {
			if strings.TrimSpace(string(m.Content())) == "null" {
				return 4
			}
			return m.ContentLength()
		}, ceilTotal),
		caught: []expect{{"prop/window-estimate", []string{"EST-4"}}},
	},
	{
		name: "estimate-go-json",
		bug:  "serializes other content with Go's encoding/json (sorted keys, <>& and U+2028 escaped, Go number forms)",
		build: estimator(func(m message.Message) int {
			c := m.Content()
			if len(c) == 0 || c[0] == '"' || string(c) == "null" {
				return m.ContentLength()
			}
			var v any
			if json.Unmarshal(c, &v) != nil {
				return m.ContentLength()
			}
			out, _ := json.Marshal(v)
			return message.Length(string(out))
		}, ceilTotal),
		caught: []expect{{"prop/window-estimate", []string{"EST-3"}}},
	},
	{
		name: "estimate-python-json",
		bug:  "serializes other content like Python's json.dumps: \", \" and \": \" separators, non-ASCII as \\uXXXX",
		build: estimator(func(m message.Message) int {
			c := m.Content()
			if len(c) == 0 || c[0] == '"' || string(c) == "null" {
				return m.ContentLength()
			}
			compact, err := message.Compact(c)
			if err != nil {
				return m.ContentLength()
			}
			return pythonLength(compact)
		}, ceilTotal),
		caught: []expect{{"prop/window-estimate", []string{"EST-3"}}},
	},
}

func ceilTotal(total int, _ []int) int { return (total + 3) / 4 }

func perMessage(_ int, each []int) int {
	sum := 0
	for _, c := range each {
		sum += (c + 3) / 4
	}
	return sum
}

// counted is what the reference measures: a string content's value, the
// compact serialization of other content.
func counted(m message.Message) string {
	c := strings.TrimSpace(string(m.Content()))
	switch {
	case c == "" || c == "null":
		return ""
	case c[0] == '"':
		var s string
		_ = json.Unmarshal([]byte(c), &s)
		return s
	default:
		s, _ := message.Compact([]byte(c))
		return s
	}
}

// pythonLength is the length of json.dumps(value) given JSON.stringify's
// form: a space after every ',' and ':' between tokens, and every
// character outside ASCII as \uXXXX (six characters per UTF-16 unit).
func pythonLength(compact string) int {
	n, inString, escaped := 0, false, false
	for _, r := range compact {
		switch {
		case inString && escaped:
			escaped = false
		case inString && r == '\\':
			escaped = true
		case r == '"':
			inString = !inString
		case !inString && (r == ',' || r == ':'):
			n++ // the space after it
		}
		if r > 0x7e {
			n += 6 * len(utf16.Encode([]rune{r}))
		} else {
			n++
		}
	}
	return n
}

func estimator(chars func(message.Message) int, round func(total int, each []int) int) func(*faulty) {
	return func(f *faulty) {
		f.estimate = func(msgs []message.Message) int {
			total, each := 0, make([]int, len(msgs))
			for i, m := range msgs {
				each[i] = chars(m)
				total += each[i]
			}
			return round(total, each)
		}
	}
}

func TestFaultyTargetsAreCaught(t *testing.T) {
	quietRapid(t)
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			for _, e := range v.caught {
				p := lookup(t, e.property)
				f := &faulty{ref: reference(t), windows: map[string]protocol.WindowConfig{}, history: map[string][]json.RawMessage{}}
				v.build(f)
				failed, out := runCaptured(p.ID, func(rt *rapid.T) { p.Check(rt, f) })
				if !failed {
					t.Errorf("%s does not catch %s (%s)", e.property, v.name, v.bug)
					continue
				}
				if !reportsUnder(out, e.clauses) {
					t.Errorf("%s caught %s but did not report it under %s:\n%s", e.property, v.name, strings.Join(e.clauses, " or "), out)
					continue
				}
				t.Logf("%s caught by %s:\n%s", v.name, e.property, clip(failureMessage(out)))
			}
		})
	}
}

// TestEveryPropertyCatchesSomething makes sure no property is left without
// a faulty target it catches.
func TestEveryPropertyCatchesSomething(t *testing.T) {
	caught := map[string]bool{}
	for _, v := range variants {
		for _, e := range v.caught {
			caught[e.property] = true
		}
	}
	for _, k := range kills {
		caught[k.property] = true
	}
	for _, p := range every() {
		if !caught[p.ID] {
			t.Errorf("%s: no faulty target shows that it can fail", p.ID)
		}
	}
}

func lookup(t *testing.T, id string) prop.Property {
	t.Helper()
	for _, p := range every() {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no property %s", id)
	return prop.Property{}
}

// reportsUnder reports whether a failure message starts with one of the
// clauses.
func reportsUnder(out string, clauses []string) bool {
	for _, line := range strings.Split(out, "\n") {
		for _, c := range clauses {
			if strings.HasPrefix(line, c+": ") {
				return true
			}
		}
	}
	return false
}

// failureMessage is the property's own message in a captured output: from
// the first line that starts with a clause ID up to the requests.
var clauseLine = regexp.MustCompile(`(?m)^[A-Z]+-[0-9]+: `)

func failureMessage(out string) string {
	loc := clauseLine.FindStringIndex(out)
	if loc == nil {
		return out
	}
	msg := out[loc[0]:]
	if end := strings.Index(msg, "\n[rapid]"); end >= 0 {
		msg = msg[:end]
	}
	return msg
}

// clip shortens each line of a message for the log.
func clip(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if r := []rune(l); len(r) > 240 {
			lines[i] = string(r[:240]) + "…"
		}
	}
	return strings.Join(lines, "\n")
}

// quietRapid keeps rapid from writing fail files for the failures these
// tests provoke on purpose, bounds shrinking and fixes the seed, so that
// what is caught, and under which clause, is the same on every run; flags
// are restored after.
func quietRapid(t *testing.T) {
	for name, value := range map[string]string{"rapid.nofailfile": "true", "rapid.shrinktime": "0s", "rapid.seed": "1"} {
		f := flag.Lookup(name)
		if f == nil {
			t.Fatalf("rapid has no flag %s", name)
		}
		old := f.Value.String()
		if err := flag.Set(name, value); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
}

// runAllCaptured runs a property's examples, then its random checks, as
// the runner does, recording instead of failing the test.
func runAllCaptured(p prop.Property, tg target.Target) (failed bool, out string) {
	for _, ex := range p.Examples {
		rec := &recorder{name: p.ID + "/" + ex.Name}
		func() {
			defer func() {
				if r := recover(); r != nil && r != errStop {
					rec.failed = true
					fmt.Fprintf(&rec.out, "panic: %v\n", r)
				}
			}()
			ex.Run(rec, tg)
		}()
		if rec.failed {
			return true, rec.out.String()
		}
	}
	if p.Check == nil {
		return false, ""
	}
	return runCaptured(p.ID, func(rt *rapid.T) { p.Check(rt, tg) })
}

// runCaptured runs a rapid check with a TB that records instead of
// failing the test.
func runCaptured(name string, prop func(*rapid.T)) (failed bool, out string) {
	rec := &recorder{name: name}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errStop {
				rec.failed = true
				fmt.Fprintf(&rec.out, "panic: %v\n", r)
			}
		}()
		rapid.Check(rec, prop)
	}()
	return rec.failed, rec.out.String()
}

var errStop = errors.New("stop")

// recorder is a rapid.TB whose failures are recorded; FailNow panics
// errStop, which runCaptured recovers.
type recorder struct {
	name   string
	failed bool
	out    strings.Builder
}

func (r *recorder) Helper()                    {}
func (r *recorder) Name() string               { return r.name }
func (r *recorder) Logf(f string, args ...any) { fmt.Fprintf(&r.out, f+"\n", args...) }
func (r *recorder) Log(args ...any)            { fmt.Fprintln(&r.out, args...) }
func (r *recorder) Skipf(f string, args ...any) {
	r.Logf(f, args...)
	r.SkipNow()
}
func (r *recorder) Skip(args ...any) { r.Log(args...); r.SkipNow() }
func (r *recorder) SkipNow()         { r.failed = true; r.Log("skipped"); panic(errStop) }
func (r *recorder) Errorf(f string, args ...any) {
	r.failed = true
	r.Logf(f, args...)
}
func (r *recorder) Error(args ...any) { r.failed = true; r.Log(args...) }
func (r *recorder) Fatalf(f string, args ...any) {
	r.Errorf(f, args...)
	panic(errStop)
}
func (r *recorder) Fatal(args ...any) { r.Error(args...); panic(errStop) }
func (r *recorder) FailNow()          { r.failed = true; panic(errStop) }
func (r *recorder) Fail()             { r.failed = true }
func (r *recorder) Failed() bool      { return r.failed }

// TestOracleAgreesWithReference: the properties' own rendering of SUM-1
// and reading of SUM-6 agree with the reference's on generated messages;
// where they differ one of the two misreads the spec.
func TestOracleAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(1, 10).Draw(rt, "n"), Marked: true, Tools: -1,
			Silent: rapid.Bool().Draw(rt, "silent")}).Draw(rt, "history")
		for i, m := range h.Msgs {
			parsed, err := message.Parse(m.Raw)
			if err != nil {
				rt.Fatalf("input[%d] does not parse: %v: %s", i, err, m.Raw)
			}
			if got := refwindow.Render(parsed); got != m.Rendered {
				rt.Fatalf("input[%d] %s\nrendered %q\nreference %q", i, m.Raw, m.Rendered, got)
			}
			if string(parsed.Class()) != m.Class {
				rt.Fatalf("input[%d] %s: class %s, reference %s", i, m.Raw, m.Class, parsed.Class())
			}
			e := entryOf(m, i)
			if k := meaning([]convEntry{e}); (k == meaningfulText) != refwindow.HasMeaningfulText([]message.Message{parsed}) {
				rt.Fatalf("input[%d] %s: meaningful %v, reference %v", i, m.Raw, k == meaningfulText, !(k == meaningfulText))
			}
		}
	})
}

// TestWindowEdgesCatchFaultyTargets: the edge examples alone, with no
// random case, catch every faulty window target the window properties
// catch — a bound broken by one must not wait for the seed to find it.
func TestWindowEdgesCatchFaultyTargets(t *testing.T) {
	for _, v := range variants {
		for _, e := range v.caught {
			p := lookup(t, e.property)
			if len(p.Examples) == 0 || !strings.HasPrefix(p.ID, "prop/window-") {
				continue
			}
			t.Run(v.name+"/"+p.ID, func(t *testing.T) {
				f := &faulty{ref: reference(t), windows: map[string]protocol.WindowConfig{}, history: map[string][]json.RawMessage{}}
				v.build(f)
				p.Check = nil // the examples only
				failed, out := runAllCaptured(p, f)
				require.True(t, failed, "the edge examples of %s do not catch %s (%s)", p.ID, v.name, v.bug)
				assert.True(t, reportsUnder(out, e.clauses), "%s caught %s but not under %s:\n%s", p.ID, v.name, strings.Join(e.clauses, " or "), out)
			})
		}
	}
}

// TestFixedConversationKeepsToDeclaredFormats: the edge examples of an
// implementation that declares one provider format never send the other.
func TestFixedConversationKeepsToDeclaredFormats(t *testing.T) {
	for _, formats := range [][]string{{protocol.FormatOpenAI}, {protocol.FormatAnthropic}, nil} {
		seen := map[string]bool{}
		for seed := range 20 {
			for _, in := range edgeConversations(formats, 12, seed) {
				for _, m := range in {
					seen[gen.MessageFormat(m.Raw)] = true
				}
			}
		}
		for _, f := range protocol.Formats() {
			assert.Equal(t, formats == nil || slices.Contains(formats, f), seen[f], "formats %v: messages of %s", formats, f)
		}
	}
}

// TestEveryEdgeIsReached: every shape of history the edge examples ask for
// is found, in each provider format alone and in both — an edge that
// silently fell back to an ordinary history would test nothing.
func TestEveryEdgeIsReached(t *testing.T) {
	for _, formats := range [][]string{{protocol.FormatOpenAI}, {protocol.FormatAnthropic}, nil} {
		// The lists as the catalogue uses them: an edge's seed is its
		// position in its list.
		for _, edges := range [][]historyEdge{wellFormedEdges(), brokenEdges(0, 4), brokenEdges(0, 3), brokenEdges(0, 2), brokenEdges(1, 3)} {
			for k, e := range edges {
				o := e.o
				o.Exact, o.Marked, o.Formats = true, true, formats
				_, ok := findHistory(formats, o, k, e.accept)
				assert.True(t, ok, "formats %v: no history of the edge %q", formats, e.name)
			}
		}
	}
}

// TestEveryBrokenToolEdgeIsReached: each kind of broken structure is found
// early and late in a conversation, in each provider format alone and in
// both.
func TestEveryBrokenToolEdgeIsReached(t *testing.T) {
	for _, formats := range [][]string{{protocol.FormatOpenAI}, {protocol.FormatAnthropic}, nil} {
		var missed []string
		for k, kind := range append(slices.Clone(gen.SureDefects), gen.AmbiguousDefects...) {
			for _, where := range []string{"early", "late"} {
				if _, ok := findHistory(formats, brokenToolOpts(formats), k, brokenAt(kind, where)); !ok {
					missed = append(missed, kind+" "+where)
				}
			}
		}
		assert.Empty(t, missed, "formats %v: edges never reached", formats)
	}
}

// TestEveryPropertyHasEdgeExamples: every property runs fixed edge
// examples before its random checks, so that a bug at a boundary is found
// at every seed.
func TestEveryPropertyHasEdgeExamples(t *testing.T) {
	for _, p := range every() {
		assert.NotEmpty(t, p.Examples, "%s has no edge examples", p.ID)
	}
}
