package gen

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"
)

// Generated window configurations, and the lengths of conversation drawn
// against them.

// Defaults of CFG-1.
const (
	DefaultMax   = 100
	DefaultFirst = 1
	DefaultLast  = 20
)

// Config is a generated ConversationHistoryConfig.
type Config struct {
	// Raw is the config sent; nil sends no config member at all.
	Raw json.RawMessage
	// Max, First and Last are the counts sent; nil when the member is
	// absent or null, so that its default applies.
	Max, First, Last *int
	Summarize        *bool
	// Sent maps each member sent to its JSON text ("null" included).
	Sent map[string]string
}

// Clause is the clause that fixes the effective value of member.
func (c Config) Clause(member string) string {
	sent, ok := c.Sent[member]
	switch {
	case !ok:
		return "CFG-1"
	case sent == "null":
		return "CFG-2"
	case strings.HasSuffix(sent, ".0") || strings.HasSuffix(sent, "e0"):
		return "CFG-3"
	default:
		return "CFG-1"
	}
}

// How says how member was sent.
func (c Config) How(member string) string {
	sent, ok := c.Sent[member]
	switch {
	case c.Raw == nil:
		return "no config was sent, which is the config {}, so every member takes its default"
	case !ok:
		return "the member was absent, so it takes its default"
	case sent == "null":
		return "the member was null, which means absent, so it takes its default"
	default:
		return "the member was sent as " + sent
	}
}

func (c Config) GoString() string {
	if c.Raw == nil {
		return "(no config)"
	}
	return string(c.Raw)
}

// Want is the effective configuration the case must produce (CFG-1, CFG-2).
func (c Config) Want() (maxN, first, last int, summarize bool) {
	or := func(p *int, d int) int {
		if p == nil {
			return d
		}
		return *p
	}
	if c.Summarize != nil {
		summarize = *c.Summarize
	}
	return or(c.Max, DefaultMax), or(c.First, DefaultFirst), or(c.Last, DefaultLast), summarize
}

// Maxes draws max_messages with weight on the small values where the
// boundaries are; 0 disables trimming (CFG-5).
var Maxes = rapid.OneOf(
	rapid.SampledFrom([]int{0, 1, 2, 3, 4, 5, 8, 10, 20}),
	rapid.IntRange(0, 30),
)

// Configs draws a configuration whose preserve_first_n + preserve_last_n
// lands below, at, one above and far above max_messages, with members
// sometimes absent or null, and counts sometimes spelled 3.0 or 3e0
// (CFG-3). maxes draws max_messages.
func Configs(maxes *rapid.Generator[int]) *rapid.Generator[Config] {
	return rapid.Custom(func(t *rapid.T) Config {
		// rapid favours the first choices, so the rare one comes last. A
		// default max_messages (100) takes a conversation of 101 messages to
		// trim, slow to shrink and long to read, so it stays rare.
		if intRange(0, 23).Draw(t, "no config") == 23 {
			return Config{}
		}
		maxN := maxes.Draw(t, "max_messages")
		var sum int
		switch intRange(0, 7).Draw(t, "h+t versus max") {
		case 0:
			sum = maxN - 1
		case 1:
			sum = maxN
		case 2:
			sum = maxN + 1
		case 3:
			sum = maxN - 2
		case 4:
			sum = 2*maxN + intRange(1, 10).Draw(t, "far above")
		default:
			sum = intRange(0, 40).Draw(t, "h+t")
		}
		sum = max(sum, 0)
		first := intRange(0, sum).Draw(t, "preserve_first_n")
		last := sum - first

		c := Config{Sent: map[string]string{}}
		var mems []string
		count := func(name string, v int, dst **int) {
			presence := []string{"set", "set", "set", "set", "set", "set", "absent", "null"}
			if name == "max_messages" {
				presence = append(slices.Repeat([]string{"set"}, 14), "absent", "null")
			}
			switch rapid.SampledFrom(presence).Draw(t, name+" present") {
			case "set":
				spelled := strconv.Itoa(v)
				switch intRange(0, 9).Draw(t, name+" spelling") {
				case 0:
					spelled += ".0"
				case 1:
					spelled += "e0"
				}
				*dst = &v
				c.Sent[name] = spelled
				mems = append(mems, fmt.Sprintf("%q:%s", name, spelled))
			case "null":
				c.Sent[name] = "null"
				mems = append(mems, fmt.Sprintf("%q:null", name))
			}
		}
		count("max_messages", maxN, &c.Max)
		count("preserve_first_n", first, &c.First)
		count("preserve_last_n", last, &c.Last)
		switch intRange(0, 4).Draw(t, "summarize_on_trim") {
		case 0:
			b := true
			c.Summarize = &b
			c.Sent["summarize_on_trim"] = "true"
			mems = append(mems, `"summarize_on_trim":true`)
		case 1:
			b := false
			c.Summarize = &b
			c.Sent["summarize_on_trim"] = "false"
			mems = append(mems, `"summarize_on_trim":false`)
		case 2:
			c.Sent["summarize_on_trim"] = "null"
			mems = append(mems, `"summarize_on_trim":null`)
		}
		mems = rapid.Permutation(mems).Draw(t, "member order")
		c.Raw = json.RawMessage("{" + strings.Join(mems, ",") + "}")
		return c
	})
}

// LengthMode says which side of the cap a conversation length falls on.
type LengthMode int

const (
	AnyLength   LengthMode = iota
	OverCap                // n > max when max > 0, so that the window trims
	WithinLimit            // n <= max, or any n when max is 0 (WIN-1)
)

// LongestConversation is the longest conversation generated.
const LongestConversation = 130

// Lengths draws a conversation length around every boundary of the
// effective configuration: 0, 1, max − 1, max, max + 1, h + t ± 1, and
// longer ones.
func Lengths(maxN, h, t int, mode LengthMode) *rapid.Generator[int] {
	if mode == AnyLength {
		return rapid.OneOf(Lengths(maxN, h, t, WithinLimit), Lengths(maxN, h, t, OverCap))
	}
	cands := []int{0, 1, 2, maxN - 1, maxN, maxN + 1, maxN + 2, h + t - 1, h + t, h + t + 1,
		h, h + 1, t, t + 1, 2 * maxN, maxN + h + t, maxN + h + t + 1}
	lo, hi := 0, LongestConversation
	switch mode {
	case OverCap:
		if maxN > 0 {
			lo = maxN + 1
		}
	case WithinLimit:
		if maxN > 0 {
			hi = maxN
		}
	}
	var keep []int
	for _, c := range cands {
		if c >= lo && c <= hi {
			keep = append(keep, c)
		}
	}
	random := rapid.IntRange(lo, min(hi, lo+60))
	if len(keep) == 0 {
		return random
	}
	// The cap itself and one past it get weight of their own: they are
	// where WIN-1 ends and trimming starts.
	var edges []int
	for _, c := range []int{maxN, maxN + 1} {
		if c >= lo && c <= hi {
			edges = append(edges, c)
		}
	}
	if len(edges) == 0 {
		return rapid.OneOf(rapid.SampledFrom(keep), rapid.SampledFrom(keep), random)
	}
	return rapid.OneOf(rapid.SampledFrom(edges), rapid.SampledFrom(keep), rapid.SampledFrom(keep), random)
}
