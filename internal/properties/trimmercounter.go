package properties

import (
	"encoding/json"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
)

// checkTrimCounter checks a native counter for sanity (ANY-13, D-60), so
// that a broken counter is reported as such rather than as a bound the
// trimmer seems to break: a count is never negative; a conversation never
// counts less than any of its prefixes, nor a message less than its
// content with text appended; and where the counter is declared per
// message, the count of a list is the empty list's plus what each message
// adds alone.
func checkTrimCounter(s trimSession, c trimCase, _ []json.RawMessage) {
	all := gen.Raws(c.h.Msgs)
	empty := s.count(c.decl, nil)
	counts := make([]int, len(all)+1)
	counts[0] = empty
	for i := range all {
		counts[i+1] = s.count(c.decl, all[:i+1])
	}
	// A count below zero has failed already: count refuses it (ANY-13).
	for i, n := range counts {
		if i > 0 && n < counts[i-1] {
			s.fail("ANY-13", "the native counter counts in[0:%d] as %d, less than in[0:%d] (%d): adding in[%d] made the conversation cheaper\n%s",
				i, n, i-1, counts[i-1], i-1, c.describe())
		}
	}
	for i, m := range all {
		longer, ok := appendText(m, " and then some more words")
		if !ok {
			continue
		}
		alone, grown := s.count(c.decl, all[i:i+1]), s.count(c.decl, []json.RawMessage{longer})
		if grown < alone {
			s.fail("ANY-13", "the native counter counts in[%d] as %d, but %d once text is appended to its content\n%s", i, alone, grown, c.describe())
		}
	}
	if c.decl.Count == nil || c.decl.Count.Over != protocol.CountOverMessage {
		return
	}
	sum := empty
	for i := range all {
		sum += s.count(c.decl, all[i:i+1]) - empty
	}
	if len(all) > 0 && sum != counts[len(all)] {
		s.fail("ANY-13", "the native counter is declared per message, but the conversation counts %d where its messages alone add up to %d (the empty list counts %d): a message's count depends on its neighbours\n%s",
			counts[len(all)], sum, empty, c.describe())
	}
}

// appendText is m with text appended to its string content; ok is false
// when its content is not a string.
func appendText(m json.RawMessage, more string) (json.RawMessage, bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(m, &members) != nil {
		return nil, false
	}
	var content string
	if json.Unmarshal(members["content"], &content) != nil {
		return nil, false
	}
	members["content"], _ = json.Marshal(content + more)
	out, err := json.Marshal(members)
	return out, err == nil
}
