package trimout

import (
	"encoding/json"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/judgemsg"
)

// What a declaration makes of an input and an output (ANY-3, ANY-6,
// ANY-7, ANY-11, ANY-12, ANY-14, D-60): the messages it keeps whatever the
// limit, the input its start rule leaves, its floor, its answer when
// nothing fits, and its output without the markers it inserts. The properties and the scenarios judge by these.

// IsMarker reports whether raw is a marker the trimmer declares: a
// message of the declared role whose text starts with the prefix.
func IsMarker(d protocol.TrimmerDecl, raw json.RawMessage) bool {
	if d.Markers == nil {
		return false
	}
	m, err := judgemsg.Parse(raw)
	if err != nil || (d.Markers.Role != "" && m.Role() != d.Markers.Role) {
		return false
	}
	return strings.HasPrefix(Text(m, false), d.Markers.Prefix)
}

// Strip is out without its markers: what subsequence, bound, fits and
// idempotence are judged on.
func Strip(d protocol.TrimmerDecl, out []json.RawMessage) []json.RawMessage {
	if d.Markers == nil {
		return out
	}
	kept := []json.RawMessage{}
	for _, o := range out {
		if !IsMarker(d, o) {
			kept = append(kept, o)
		}
	}
	return kept
}

// SystemKept is the positions of the system messages the trimmer keeps
// when it claims system: the leading ones (D-35), in[0], the first one
// anywhere, or all of them.
func SystemKept[M Msg](d protocol.TrimmerDecl, in []M) []int {
	if !d.Claims(protocol.GuaranteeSystem) {
		return nil
	}
	var out []int
	for i, m := range view(in) {
		if m.Class() != judgemsg.System {
			if d.System == "" || d.System == protocol.SystemLeading || d.System == protocol.SystemFirst {
				break
			}
			continue
		}
		out = append(out, i)
		if d.System == protocol.SystemFirst || d.System == protocol.SystemFirstAnywhere {
			break
		}
	}
	return out
}

// Kept is what the trimmer keeps whatever the limit, in input order: its
// kept system messages and its head (ANY-3, ANY-11).
func Kept[M Msg](d protocol.TrimmerDecl, in []M) []bool {
	keep := make([]bool, len(in))
	for _, i := range SystemKept(d, in) {
		keep[i] = true
	}
	for i := 0; i < d.Head && i < len(in); i++ {
		keep[i] = true
	}
	return keep
}

// Effective is the input as the start rule leaves it (ANY-12): the kept
// messages, then everything from the first user prompt after the kept
// messages that lead; without a start rule, the whole input.
func Effective[M Msg](d protocol.TrimmerDecl, in []M) []bool {
	eff := Kept(d, in)
	if d.Start == "" {
		for i := range eff {
			eff[i] = true
		}
		return eff
	}
	lead := 0
	for lead < len(eff) && eff[lead] {
		lead++
	}
	read := view(in)
	for p := lead; p < len(read); p++ {
		if read[p].Class() == judgemsg.UserPrompt {
			for i := p; i < len(in); i++ {
				eff[i] = true
			}
			break
		}
	}
	return eff
}

// Floor is the smallest acceptable output (ANY-6): the kept messages, the
// latest user prompt and the last unit where claimed, of the effective
// input, in input order.
func Floor[M Msg](d protocol.TrimmerDecl, in []M) []int {
	keep, eff, read := Kept(d, in), Effective(d, in), view(in)
	if d.Claims(protocol.GuaranteeLastPrompt) {
		for i := len(read) - 1; i >= 0; i-- {
			if read[i].Class() == judgemsg.UserPrompt {
				keep[i] = true
				break
			}
		}
	}
	if units, err := judgemsg.Units(read); err == nil && len(units) > 0 && d.Claims(protocol.GuaranteeLastUnit) {
		for i := units[len(units)-1].Start; i < len(in); i++ {
			keep[i] = true
		}
	}
	var out []int
	for i := range in {
		if keep[i] && eff[i] {
			out = append(out, i)
		}
	}
	return out
}

// Fallback is what a trimmer declaring fallback "last_message" answers
// when nothing beyond its kept messages fits (ANY-14, D-76): the kept
// messages and the effective input's last message, in input order. ok is
// false without the member, and when that last message is a kept one or
// the effective input holds nothing else: there is nothing to fall back
// on. Whether it applies is the count's: when what it returns counts more
// than the limit.
func Fallback[M Msg](d protocol.TrimmerDecl, in []M) (sel []bool, ok bool) {
	if d.Fallback != protocol.FallbackLastMessage || len(in) == 0 {
		return nil, false
	}
	sel, eff := Kept(d, in), Effective(d, in)
	last := len(in) - 1
	if sel[last] || !eff[last] {
		return nil, false
	}
	sel[last] = true
	return sel, true
}

// Pick is the raw messages of in at the positions where sel is true.
func Pick[M Msg](in []M, sel []bool) []json.RawMessage {
	out := []json.RawMessage{}
	for i, ok := range sel {
		if ok {
			out = append(out, in[i].Raw())
		}
	}
	return out
}

// Match maps each output message to the input position it is JSON-equal
// to, in order (ANY-1): -1 for one with no input message left to stand
// for.
func Match(in []json.RawMessage, out []json.RawMessage) []int {
	pos := make([]int, len(out))
	next := 0
	for k, o := range out {
		pos[k] = -1
		for i := next; i < len(in); i++ {
			if jsoncmp.Equal(in[i], o) {
				pos[k], next = i, i+1
				break
			}
		}
	}
	return pos
}

// NothingFits reports whether a trimmer declaring refuses "nothing_fits"
// may answer with an error (ANY-9): the effective input holds no unit
// outside the kept messages that, with them, counts at most the limit.
func NothingFits[M Msg](d protocol.TrimmerDecl, in []M, limit int, count func([]json.RawMessage) int) bool {
	units, err := judgemsg.Units(view(in))
	if err != nil {
		return false
	}
	kept, eff := Kept(d, in), Effective(d, in)
	base := Pick(in, kept)
	for _, u := range units {
		outside := false
		for i := u.Start; i < u.End; i++ {
			if eff[i] && !kept[i] {
				outside = true
			}
		}
		if !outside {
			continue
		}
		with := append([]json.RawMessage{}, base...)
		for i := u.Start; i < u.End; i++ {
			if !kept[i] {
				with = append(with, in[i].Raw())
			}
		}
		if count(with) <= limit {
			return false
		}
	}
	return true
}

// WithoutStraddling is out without its oldest unit outside the floor — the
// unit a slack of "unit" may overshoot the bound by (ANY-6) — and whether
// there is one; out is matched to in by Match.
func WithoutStraddling[M Msg](in []M, out []json.RawMessage, floor []int) ([]json.RawMessage, bool) {
	units, err := judgemsg.Units(view(in))
	if err != nil {
		return nil, false
	}
	inFloor := map[int]bool{}
	for _, i := range floor {
		inFloor[i] = true
	}
	raws := make([]json.RawMessage, len(in))
	for i, m := range in {
		raws[i] = m.Raw()
	}
	pos := Match(raws, out)
	for _, p := range pos {
		if p < 0 || inFloor[p] {
			continue
		}
		for _, u := range units {
			if p < u.Start || p >= u.End {
				continue
			}
			var rest []json.RawMessage
			for j, q := range pos {
				if q < u.Start || q >= u.End {
					rest = append(rest, out[j])
				}
			}
			return rest, true
		}
	}
	return nil, false
}
