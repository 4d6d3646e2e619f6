package properties

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/reference/message"
)

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
