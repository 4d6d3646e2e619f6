package properties

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/jsonscan"
)

// Tracing returned messages back to the input, and describing them.

// traced is a returned message traced back to the input by its marker.
type traced struct {
	at    int  // the input message its marker names, -1 if none
	equal bool // JSON-equal to that input message
}

func trace(raw json.RawMessage, in []gen.Message) traced {
	seq, ok := marker(raw)
	if !ok || seq != float64(int(seq)) || seq < 0 || int(seq) >= len(in) || in[int(seq)].Seq != int(seq) {
		return traced{at: -1}
	}
	at := int(seq)
	// raw is JSON (marker read it): the same text is JSON-equal without
	// a second check, which jsoncmp.Equal would make.
	return traced{at: at, equal: bytes.Equal(raw, in[at].Raw) || jsoncmp.Equal(raw, in[at].Raw)}
}

// marker is the number raw's marker member holds, as encoding/json
// decodes raw into a map and the member into a float64 (null is 0); false
// where that fails. It reads the text in place: every returned message of
// every trim is traced, and decoding each into a map was 2 % of the
// harness's CPU over the wire (FuzzTraceAsDecoded holds it to the
// decoding).
func marker(raw json.RawMessage) (float64, bool) {
	if !jsonscan.Valid(raw) {
		return 0, false
	}
	members, ok := jsonscan.SplitObject(raw)
	if !ok {
		return 0, false
	}
	v, ok := members.Get(gen.MarkerName)
	switch {
	case !ok:
		return 0, false
	case v[0] == 'n':
		return 0, true // null leaves a float64 as it is
	case v[0] != '-' && (v[0] < '0' || v[0] > '9'):
		return 0, false // not a number
	}
	f, err := strconv.ParseFloat(string(v), 64)
	return f, err == nil // out of a double's range: encoding/json refuses it
}

func traceAll(list []json.RawMessage, in []gen.Message) []traced {
	out := make([]traced, len(list))
	for i, m := range list {
		out[i] = trace(m, in)
	}
	return out
}

func wantAt(want []int, i int, in []gen.Message) string {
	if i >= len(want) {
		return "nothing (it should end there)"
	}
	return describe(in, want[i])
}

// gotAt says what list[i], a returned message, is: "it is input[3] (role
// user)", or that the list ends before it.
func gotAt(list []json.RawMessage, i int, in []gen.Message, name string) string {
	switch {
	case len(list) == 0:
		return name + " is empty"
	case i >= len(list):
		return fmt.Sprintf("%s ends after %s", name, plural(len(list), "message"))
	}
	return "it is " + whatIs(list[i], in)
}

// entry names list[i], or says that the list is too short to have it.
func entry(list []json.RawMessage, i int, in []gen.Message) string {
	if i >= len(list) {
		return fmt.Sprintf("nothing (the list had %s)", plural(len(list), "message"))
	}
	return whatIs(list[i], in)
}

// whatIs names a returned message by the input message it stands for.
func whatIs(m json.RawMessage, in []gen.Message) string {
	switch tr := trace(m, in); {
	case tr.at < 0:
		return "no input message: " + abbreviate(m, 120)
	case !tr.equal:
		return "an altered copy of " + describe(in, tr.at)
	default:
		return describe(in, tr.at)
	}
}

// traceList writes a returned list as the input positions it holds:
// input[0 3-5 ~7 ?], where ~7 is an altered copy of input[7] and ? a
// message that is no input message.
func traceList(list []json.RawMessage, in []gen.Message) string {
	var items []string
	tr := traceAll(list, in)
	for i := 0; i < len(tr); {
		x := tr[i]
		switch {
		case x.at < 0:
			items = append(items, "?")
			i++
		case !x.equal:
			items = append(items, "~"+strconv.Itoa(x.at))
			i++
		default:
			j := gen.RunEnd(tr, i, func(a, b traced) bool { return b.equal && b.at == a.at+1 })
			items = append(items, span(tr[i].at, tr[j].at))
			i = j + 1
		}
	}
	if len(list) == 0 {
		return "none"
	}
	return fmt.Sprintf("input[%s] (%s)", strings.Join(items, " "), plural(len(list), "message"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// indexList writes input positions as input[0 3-5].
func indexList(idx []int) string {
	if len(idx) == 0 {
		return "none"
	}
	var items []string
	for i := 0; i < len(idx); {
		j := gen.RunEnd(idx, i, func(a, b int) bool { return b == a+1 })
		items = append(items, span(idx[i], idx[j]))
		i = j + 1
	}
	return "input[" + strings.Join(items, " ") + "]"
}

func span(a, b int) string {
	if a == b {
		return strconv.Itoa(a)
	}
	return fmt.Sprintf("%d-%d", a, b)
}
