// Package paramsjson encodes a request's params as json.Marshal does, byte
// for byte, at a fraction of its cost for the params that carry messages.
//
// encoding/json encodes a json.RawMessage by running it through its
// scanner, a function call a byte, to compact it and escape it for HTML:
// every message of every request, although the harness's generators
// write messages compact and most need no escaping. Here the params types
// of package protocol are written member by member, in their declared
// order and with their omitempty rules, and each json.RawMessage is
// checked by jsonscan's one pass, which also says whether it is already in
// Marshal's form, so that it is copied, and otherwise compacted and
// escaped as Marshal would (jsonscan.AppendMarshaled). Params built as a
// map[string]any are written so too, member by member. Any other value,
// any params holding a json.RawMessage that is not valid JSON, and a map
// with a value json.Marshal refuses, is encoded by json.Marshal itself, so
// that the error is its own (D-92;
// FuzzMarshalAsEncodingJSON).
package paramsjson

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"sync"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
)

// Marshal returns json.Marshal(params): the same bytes and the same error.
func Marshal(params any) ([]byte, error) {
	if b, ok := encode(params); ok {
		return b, nil
	}
	// Another type, or a json.RawMessage that is not JSON: Marshal's
	// error, as it says it.
	return json.Marshal(params)
}

// buffers hold the bytes of params being written, as encoding/json keeps
// its own: what is returned is a copy the size of the params, made once,
// where a buffer of the caller's would be grown, and copied, for each
// message an escape makes longer.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

// encode writes params as json.Marshal does; false when params is not one
// of the types it writes, holds a json.RawMessage that is not JSON, or is
// a map with a value json.Marshal refuses.
func encode(params any) ([]byte, bool) {
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	e := encoder{b: (*buf)[:0]}
	defer func() { *buf = e.b }()
	switch p := params.(type) {
	case json.RawMessage:
		// Params written before, to ask a question once (D-97): as
		// json.Marshal writes a json.RawMessage, with nothing to close.
		e.raw(p)
		if e.bad {
			return nil, false
		}
		return append([]byte(nil), e.b...), true
	case protocol.TrimmerTrimParams:
		e.open()
		e.key("trimmer")
		e.string(p.Trimmer)
		e.key("messages")
		e.raws(p.Messages)
		e.key("limit")
		e.raw(p.Limit)
	case protocol.TrimmerCountParams:
		e.open()
		e.key("trimmer")
		e.string(p.Trimmer)
		e.key("messages")
		e.raws(p.Messages)
	case protocol.WindowTrimParams:
		e.open()
		e.key("window")
		e.string(p.Window)
		e.key("messages")
		e.raws(p.Messages)
		if p.Summarizer != nil {
			e.key("summarizer")
			e.summarizer(p.Summarizer)
		}
	case protocol.WindowEstimateParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
	case protocol.WindowSummarizeParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
		e.key("summarizer")
		e.summarizer(p.Summarizer)
	case protocol.WindowCreateParams:
		e.open()
		if len(p.Config) > 0 {
			e.key("config")
			e.raw(p.Config)
		}
	case protocol.TokensEncodeParams:
		e.open()
		e.key("text")
		e.string(p.Text)
	case protocol.BudgetCountParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
	case protocol.BudgetCheckParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
		e.key("model")
		e.string(p.Model)
		e.limits(p.Limits)
	case protocol.BudgetPruneParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
		e.key("model")
		e.string(p.Model)
		e.limits(p.Limits)
		if len(p.TargetRatio) > 0 {
			e.key("target_ratio")
			e.raw(p.TargetRatio)
		}
	case protocol.BudgetCompressParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
		e.key("summarizer")
		e.summarizer(p.Summarizer)
	case protocol.BudgetPrepareParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
		e.key("model")
		e.string(p.Model)
		e.limits(p.Limits)
		e.key("summarizer")
		e.summarizer(p.Summarizer)
	case protocol.HistoryClassifyParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
	case protocol.HistoryPruneParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
	case protocol.HistoryBuildParams:
		e.open()
		e.key("messages")
		e.raws(p.Messages)
		e.key("max_messages")
		e.raw(p.MaxMessages)
	case protocol.ConfigResolveParams:
		e.open()
		e.key("config")
		e.config(p.Config)
	case protocol.LoopRunParams:
		e.loopRun(p)
	case map[string]any:
		e.anyMap(p)
	case protocol.InitializeParams:
		e.open()
		e.key("protocol")
		e.b = strconv.AppendInt(e.b, int64(p.Protocol), 10)
		e.key("suite")
		e.string(p.Suite)
	default:
		return nil, false
	}
	if e.bad {
		return nil, false
	}
	if len(e.b) == 0 {
		return []byte("null"), true // a nil map
	}
	e.b = append(e.b, '}')
	return append([]byte(nil), e.b...), true
}

// encoder appends the params object to b; bad says that a
// json.RawMessage was not valid JSON.
type encoder struct {
	b   []byte
	bad bool
}

// open starts the params object.
func (e *encoder) open() {
	e.b = append(e.b, '{')
}

// key writes the name of the next member of the innermost object open,
// after a comma unless it is the first. The names are the params types'
// own, which need no escaping.
func (e *encoder) key(name string) {
	e.comma()
	e.b = append(e.b, '"')
	e.b = append(e.b, name...)
	e.b = append(e.b, '"', ':')
}

// name writes a member name that comes with the data (a map's key), as
// json.Marshal writes it: sorted by the caller, escaped as any string.
func (e *encoder) name(name string) {
	e.comma()
	e.string(name)
	e.b = append(e.b, ':')
}

// comma separates a member from the one before it, unless it is the first
// of the innermost object open (no value ends with '{').
func (e *encoder) comma() {
	if e.b[len(e.b)-1] != '{' {
		e.b = append(e.b, ',')
	}
}

// string writes s as encoding/json does: a string of printable ASCII
// without a quote, a backslash or a byte it escapes for HTML as it is,
// any other by encoding/json (a handle, a model or a trimmer's name is
// the first kind).
func (e *encoder) string(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s) // a string has no error
			e.b = append(e.b, b...)
			return
		}
	}
	e.b = append(e.b, '"')
	e.b = append(e.b, s...)
	e.b = append(e.b, '"')
}

// raw writes m as encoding/json writes a json.RawMessage: null when nil.
func (e *encoder) raw(m json.RawMessage) {
	if m == nil {
		e.b = append(e.b, "null"...)
		return
	}
	var ok bool
	if e.b, ok = jsonscan.AppendMarshaled(e.b, m); !ok {
		e.bad = true
	}
}

// raws writes a list of messages: null when nil.
func (e *encoder) raws(ms []json.RawMessage) {
	if ms == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, m := range ms {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.raw(m)
	}
	e.b = append(e.b, ']')
}

// count writes a Count as its MarshalJSON does.
func (e *encoder) count(c protocol.Count) {
	e.b = strconv.AppendInt(e.b, int64(c), 10)
}

// limits writes the member limits, omitted when empty; encoding/json
// writes a map's members sorted by name.
func (e *encoder) limits(m map[string]protocol.Count) {
	if len(m) == 0 {
		return
	}
	e.key("limits")
	e.b = append(e.b, '{')
	for _, name := range slices.Sorted(maps.Keys(m)) {
		e.name(name)
		e.count(m[name])
	}
	e.b = append(e.b, '}')
}

// summarizer writes a summarizer script: null when nil, each member
// omitted when empty.
func (e *encoder) summarizer(s *protocol.SummarizerScript) {
	if s == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '{')
	if s.Reply != nil {
		e.key("reply")
		e.string(*s.Reply)
	}
	if s.Error != nil {
		e.key("error")
		e.string(*s.Error)
	}
	if s.DelayMS != 0 {
		e.key("delay_ms")
		e.count(s.DelayMS)
	}
	if s.TimeoutMS != 0 {
		e.key("timeout_ms")
		e.count(s.TimeoutMS)
	}
	e.b = append(e.b, '}')
}

// config writes a config source: null when nil.
func (e *encoder) config(c *protocol.ConfigSource) {
	if c == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, `{"format":`...)
	e.string(c.Format)
	e.b = append(e.b, `,"text":`...)
	e.string(c.Text)
	e.b = append(e.b, '}')
}

// loopRun writes loop.run's params: the initial messages and every
// iteration's prompt and turns are messages.
func (e *encoder) loopRun(p protocol.LoopRunParams) {
	e.open()
	e.key("config")
	e.config(p.Config)
	e.key("initial")
	e.raws(p.Initial)
	e.key("iterations")
	if p.Iterations == nil {
		e.b = append(e.b, "null"...)
	} else {
		e.b = append(e.b, '[')
		for i, it := range p.Iterations {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.b = append(e.b, `{"prompt":`...)
			e.raw(it.Prompt)
			e.b = append(e.b, `,"turns":`...)
			e.turns(it.Turns)
			e.b = append(e.b, '}')
		}
		e.b = append(e.b, ']')
	}
	if len(p.Summarizers) > 0 {
		e.key("summarizers")
		e.b = append(e.b, '[')
		for i := range p.Summarizers {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.summarizer(&p.Summarizers[i])
		}
		e.b = append(e.b, ']')
	}
}

func (e *encoder) turns(turns []protocol.LoopTurn) {
	if turns == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, turn := range turns {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = append(e.b, `{"response":`...)
		e.raw(turn.Response)
		e.b = append(e.b, `,"results":`...)
		e.raws(turn.Results)
		e.b = append(e.b, '}')
	}
	e.b = append(e.b, ']')
}

// anyMap writes params built as a map, as the differential properties
// build theirs: members sorted by name, as encoding/json sorts a map's;
// a list of messages or a string written here, any other value by
// json.Marshal, which writes it as it would in the map. A nil map is
// left unopened: null.
func (e *encoder) anyMap(m map[string]any) {
	if m == nil {
		return
	}
	e.open()
	for _, name := range slices.Sorted(maps.Keys(m)) {
		e.name(name)
		switch v := m[name].(type) {
		case []json.RawMessage:
			e.raws(v)
		case string:
			e.string(v)
		default:
			b, err := json.Marshal(v)
			if err != nil {
				e.bad = true
				return
			}
			e.b = append(e.b, b...)
		}
	}
}
