package properties

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
)

// Small helpers shared by the properties.

func ceil4(chars int) int { return (chars + 3) / 4 }

func countCode(ws []protocol.Warning, code string) int {
	n := 0
	for _, w := range ws {
		if w.Code == code {
			n++
		}
	}
	return n
}

func warningCodes(ws []protocol.Warning) string {
	if len(ws) == 0 {
		return "no warnings"
	}
	codes := make([]string, len(ws))
	for i, w := range ws {
		codes[i] = strconv.Quote(w.Code)
	}
	return "warnings [" + strings.Join(codes, ", ") + "]"
}

func mapsEqual(a, b map[int]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func abbreviate(b []byte, limit int) string {
	s := string(b)
	if r := []rune(s); len(r) > limit {
		return string(r[:limit]) + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// splitUnit finds the first of units that keep keeps only in part: has are
// its positions kept, lacks those not.
func splitUnit(units [][2]int, keep func(i int) bool) (u [2]int, has, lacks []int, ok bool) {
	for _, u := range units {
		has, lacks = nil, nil
		for i := u[0]; i < u[1]; i++ {
			if keep(i) {
				has = append(has, i)
			} else {
				lacks = append(lacks, i)
			}
		}
		if len(has) > 0 && len(lacks) > 0 {
			return u, has, lacks, true
		}
	}
	return [2]int{}, nil, nil, false
}

// namedList is one of the message lists a trim returns, with its name.
type namedList struct {
	name string
	msgs []json.RawMessage
}

// trimLists are the two lists of a trim: trimmed, then evicted.
func trimLists(res protocol.WindowTrimResult) []namedList {
	return []namedList{{"trimmed", res.Trimmed}, {"evicted", res.Evicted}}
}

// nonNil is s, or an empty list for nil: a list is sent as [], never as
// null.
func nonNil[E any](s []E) []E {
	if s == nil {
		return []E{}
	}
	return s
}
