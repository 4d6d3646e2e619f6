package check

import (
	"fmt"

	"github.com/convspec/convspec/reference/message"
)

// snapshot is what a conversation keeps of its previous request: enough
// to read the next one as a trim of it (ACC-10 – ACC-13), and no message
// text (D-58).
type snapshot struct {
	where   string
	format  string
	system  bool // an Anthropic top-level system
	hashes  []uint64
	classes []message.Class
	units   []message.Unit
	// lead is the number of leading system messages (ANY-3).
	lead int
}

func takeSnapshot(where string, r *request, hashes []uint64) *snapshot {
	s := &snapshot{where: where, format: r.format, system: r.system, hashes: hashes,
		classes: make([]message.Class, len(r.messages))}
	for i, m := range r.messages {
		s.classes[i] = m.Class()
	}
	for s.lead < len(s.classes) && s.classes[s.lead] == message.System {
		s.lead++
	}
	units, _ := message.Structure(r.messages)
	for _, u := range units {
		if u.Len() > 1 {
			s.units = append(s.units, u) // units of one cannot be split
		}
	}
	return s
}

// latestPrompt is the index of the snapshot's latest user prompt, or -1.
func (s *snapshot) latestPrompt() int {
	for i := len(s.classes) - 1; i >= 0; i-- {
		if s.classes[i] == message.UserPrompt {
			return i
		}
	}
	return -1
}

// trimFindings reads next as a trim of prev (ACC-10 – ACC-13) and returns
// what it broke and the hashes of the messages it evicted. evicted says
// whether a message was evicted from the conversation before prev.
func trimFindings(prev *snapshot, next *request, hashes []uint64, evicted func(uint64) bool) ([]Finding, []uint64) {
	var out []Finding
	add := func(clause string, i int, fix, format string, args ...any) {
		out = append(out, Finding{Clause: clause, Index: i, Detail: fmt.Sprintf(format, args...), Fix: fix})
	}
	// Kept messages: the longest run of next's messages, matched greedily,
	// that stands in prev in prev's order (ANY-1).
	at := make(map[uint64][]int, len(prev.hashes))
	for i, h := range prev.hashes {
		at[h] = append(at[h], i)
	}
	kept := make([]int, len(hashes)) // next's message → prev's, or -1
	matched := make([]bool, len(prev.hashes))
	from, lastKept := 0, -1
	for j, h := range hashes {
		kept[j] = -1
		for _, i := range at[h] {
			if i >= from {
				kept[j], matched[i], from, lastKept = i, true, i+1, j
				break
			}
		}
	}

	// ACC-13: before the last kept message, only kept messages and
	// messages new to the conversation (a summary).
	for j := 0; j < lastKept; j++ {
		if kept[j] >= 0 {
			continue
		}
		switch h := hashes[j]; {
		case len(at[h]) > 0:
			add("ACC-13", j, "trim the current history; never rebuild it from an older copy or send a kept message twice",
				"repeats messages[%d] of the previous request (%s) out of its order", at[h][0], prev.where)
		case evicted(h) && next.messages[j].Class() != message.System:
			// A system prompt that comes back mends a trim that dropped
			// it (ACC-10); it is no rebuilt history.
			add("ACC-13", j, "trim the current history; never rebuild it from an older copy",
				"was evicted from this conversation before %s and is back", prev.where)
		}
	}

	// ACC-10: the leading system messages, or Anthropic's system.
	for j := 0; j < prev.lead; j++ {
		if j >= len(kept) || kept[j] != j {
			role := "none"
			if j < len(next.messages) {
				role = fmt.Sprintf("%q", next.messages[j].Role())
			}
			add("ACC-10", min(j, len(next.messages)-1), "keep the leading system messages in every trim (ANY-3)",
				"the previous request (%s) starts with %d system %s; this one has %s at messages[%d]",
				prev.where, prev.lead, plural(prev.lead, "message", "messages"), role, j)
			break
		}
	}
	if prev.system && !next.system {
		add("ACC-10", -1, `keep the top-level "system" in every request (ANY-3)`,
			"the previous request (%s) has a top-level system prompt; this one has none", prev.where)
	}

	// ACC-11: the latest user prompt, unless a new one was added.
	addedPrompt := false
	for j := lastKept + 1; j < len(next.messages); j++ {
		if kept[j] < 0 && next.messages[j].Class() == message.UserPrompt {
			addedPrompt = true
		}
	}
	if lp := prev.latestPrompt(); lp >= 0 && !matched[lp] && !addedPrompt {
		add("ACC-11", -1, "keep the latest user prompt in every trim (ANY-4)",
			"the latest user prompt, messages[%d] of the previous request (%s), is evicted and no new one was added", lp, prev.where)
	}

	// ACC-12: units kept whole or evicted whole.
	for _, u := range prev.units {
		n, firstKept := 0, -1
		for i := u.Start; i < u.End; i++ {
			if matched[i] {
				n++
			}
		}
		if n == 0 || n == u.Len() {
			continue
		}
		for j, i := range kept {
			if i >= u.Start && i < u.End {
				firstKept = j
				break
			}
		}
		add("ACC-12", firstKept, "evict a tool call and all its results together, or keep them all (UNIT-3)",
			"the trim kept %d of the %d messages of the unit messages[%d..%d] of the previous request (%s)",
			n, u.Len(), u.Start, u.End-1, prev.where)
	}

	var gone []uint64
	for i, ok := range matched {
		if !ok {
			gone = append(gone, prev.hashes[i])
		}
	}
	return out, gone
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
