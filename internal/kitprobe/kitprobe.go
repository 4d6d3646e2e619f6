// Package kitprobe checks an adapter kit's wire against the protocol's JSON
// Schema (spec/schema/protocol.schema.json, D-63) by talking to it: the
// kits (Node, Python, Go) each read params and write results by hand, and
// this is what holds them to the one description of the wire. The kit is
// served with a probe adapter whose handlers answer fixed values of the
// shapes the kit expects; what is checked is the kit's own part: the
// handshake, the params members it refuses a request without, and the
// results it writes.
package kitprobe

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/spec/schema"
)

// Call sends one request and returns the response line.
type Call func(request []byte) ([]byte, error)

// The values the probe gives the members that name something the probe
// adapter declares.
const (
	// Trimmer is the name of the probe adapter's one trimmer, declared with
	// a native counter so that trimmer.count is answered too.
	Trimmer = "probe"
)

// Check runs the probe over call and reports every difference from the
// schema on t. It returns the methods the kit answered (those of the
// capabilities it declares), so that the caller can say which it expects.
func Check(t *testing.T, call Call) []string {
	t.Helper()
	defs := loadDefs(t)
	p := &prober{t: t, call: call, defs: defs}
	hello, perr := p.send(protocol.MethodInitialize, map[string]any{"protocol": protocol.Version, "suite": "convspec"})
	if perr != nil {
		t.Fatalf("initialize: %v", perr)
	}
	p.result(protocol.MethodInitialize, hello)
	var h protocol.InitializeResult
	if err := json.Unmarshal(hello, &h); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	var answered []string
	for _, method := range protocol.Methods() {
		if method == protocol.MethodInitialize || method == protocol.MethodShutdown {
			continue
		}
		if !p.declares(h.Capabilities, method) {
			continue
		}
		answered = append(answered, method)
		p.refused(method)
		// The least params, then every member: an optional one read, and
		// what it adds to the result (a summary, the calls) described.
		for _, all := range []bool{false, true} {
			params := p.valid(method, all)
			raw, perr := p.send(method, params)
			if perr != nil {
				shown, _ := json.Marshal(params)
				t.Errorf("%s: the kit refuses params the schema allows, %s: %v", method, shown, perr)
				continue
			}
			p.result(method, raw)
		}
	}
	raw, perr := p.send(protocol.MethodShutdown, nil)
	if perr != nil || string(raw) != "null" {
		t.Errorf("shutdown: want the result null, got %s (%v)", raw, perr)
	}
	return answered
}

type prober struct {
	t      *testing.T
	call   Call
	defs   map[string]any
	id     int
	window string // a handle from window.create, for window.trim
}

// declares reports whether the handshake's capabilities include method's.
func (p *prober) declares(caps []string, method string) bool {
	capability := map[string]string{
		protocol.MethodWindowCreate: protocol.CapWindow, protocol.MethodWindowTrim: protocol.CapWindow,
		protocol.MethodWindowEstimate: protocol.CapWindow, protocol.MethodWindowSummarize: protocol.CapSummarize,
		protocol.MethodHistoryClassify: protocol.CapHistory, protocol.MethodHistoryPrune: protocol.CapHistory,
		protocol.MethodHistoryBuild: protocol.CapHistory, protocol.MethodTokensEncode: protocol.CapTokens,
		protocol.MethodBudgetCount: protocol.CapBudget, protocol.MethodBudgetCheck: protocol.CapBudget,
		protocol.MethodBudgetPrune: protocol.CapBudget, protocol.MethodBudgetCompress: protocol.CapBudget,
		protocol.MethodBudgetPrepare: protocol.CapBudget, protocol.MethodConfigResolve: protocol.CapConfig,
		protocol.MethodLoopRun: protocol.CapLoop, protocol.MethodTrimmerTrim: protocol.CapTrimmer,
		protocol.MethodTrimmerCount: protocol.CapTrimmer,
	}[method]
	if capability == "" {
		p.t.Errorf("%s: the probe knows no capability of it", method)
	}
	return slices.Contains(caps, capability)
}

// send sends a request and returns its result, or its error object.
func (p *prober) send(method string, params any) (json.RawMessage, *protocol.Error) {
	p.t.Helper()
	p.id++
	req := map[string]any{"jsonrpc": "2.0", "id": p.id, "method": method}
	if params != nil {
		req["params"] = params
	}
	line, err := json.Marshal(req)
	if err != nil {
		p.t.Fatalf("%s: %v", method, err)
	}
	out, err := p.call(line)
	if err != nil {
		p.t.Fatalf("%s: %v", method, err)
	}
	var resp protocol.Response
	if err := json.Unmarshal(out, &resp); err != nil {
		p.t.Fatalf("%s: the answer %s is not a response: %v", method, out, err)
	}
	if resp.Error != nil {
		return nil, resp.Error
	}
	return resp.Result, nil
}

// missing is how every implementation names a member it refused a request
// without: "params.model is missing", "params.model: missing".
var missing = regexp.MustCompile(`^params\.([A-Za-z_]+)(?:[: ]|$)`)

// refused finds the params members the kit refuses method's request
// without, one at a time — params of {} name the first, which is then given
// a valid value — and reports those the schema does not require: a kit
// must not refuse what the schema allows (D-63).
func (p *prober) refused(method string) {
	def := p.params(method)
	params := map[string]any{}
	for range 16 {
		_, perr := p.send(method, params)
		if perr == nil || perr.Kind() != protocol.KindInvalidParams {
			return
		}
		m := missing.FindStringSubmatch(perr.Message)
		if m == nil {
			return
		}
		if _, given := params[m[1]]; given {
			return // a value the probe gave is refused: nothing more is missing
		}
		if !slices.Contains(required(def), m[1]) {
			p.t.Errorf("%s: the kit refuses a request without params.%s, which the schema does not require (%s)", method, m[1], perr.Message)
			return
		}
		params[m[1]] = p.value(method, m[1], property(def, m[1]))
	}
}

// valid is params the schema allows: its required members, or all its
// members, each with a valid value.
func (p *prober) valid(method string, all bool) map[string]any {
	def := p.params(method)
	names := required(def)
	if all {
		props, _ := def["properties"].(map[string]any)
		names = nil
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
	}
	params := map[string]any{}
	for _, name := range names {
		params[name] = p.value(method, name, property(def, name))
	}
	return params
}

// value is a valid value of a member: what the probe adapter declares for
// the names it holds, else the least value of the member's schema.
func (p *prober) value(method, member string, node map[string]any) any {
	switch {
	case member == "window" && method == protocol.MethodWindowTrim:
		if p.window == "" {
			raw, perr := p.send(protocol.MethodWindowCreate, map[string]any{})
			var r struct{ Window string }
			if perr != nil || json.Unmarshal(raw, &r) != nil {
				p.t.Fatalf("window.create: %s %v", raw, perr)
			}
			p.window = r.Window
		}
		return p.window
	case member == "trimmer":
		return Trimmer
	case member == "summarizer":
		return map[string]any{"reply": "summary"}
	case member == "config" && (method == protocol.MethodConfigResolve || method == protocol.MethodLoopRun):
		return map[string]any{"format": "json", "text": "{}"}
	case member == "model":
		return "probe-model"
	case member == "config":
		return map[string]any{} // window.create's: every default
	case member == "target_ratio":
		return 0.8
	}
	return p.least(node)
}

// least is the least value a schema node allows.
func (p *prober) least(node map[string]any) any {
	node = p.resolve(node)
	if enum, ok := node["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	ty, _ := node["type"].(string)
	switch ty {
	case "integer", "number":
		return 1
	case "string":
		return "x"
	case "boolean":
		return false
	case "array":
		return []any{}
	case "object":
		out := map[string]any{}
		for _, name := range required(node) {
			out[name] = p.least(property(node, name))
		}
		return out
	}
	return map[string]any{"role": "user", "content": "x"} // any value: a message
}

// result checks a result against the method's result schema, and that
// every member the kit writes is one the schema describes.
func (p *prober) result(method string, raw json.RawMessage) {
	p.t.Helper()
	if err := schema.Result(method, raw); err != nil {
		p.t.Errorf("%s: the kit's result %s breaks the schema: %v", method, raw, err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		p.t.Errorf("%s: %v", method, err)
		return
	}
	for _, extra := range p.undescribed(p.def(method), v, "result") {
		p.t.Errorf("%s: the kit writes %s, which the schema does not describe", method, extra)
	}
}

// undescribed lists the members of v the schema node does not describe.
func (p *prober) undescribed(node map[string]any, v any, at string) []string {
	node = p.resolve(node)
	var out []string
	switch x := v.(type) {
	case map[string]any:
		props, ok := node["properties"].(map[string]any)
		if !ok {
			return nil
		}
		names := make([]string, 0, len(x))
		for name := range x {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			sub, ok := props[name].(map[string]any)
			if !ok {
				out = append(out, at+"."+name)
				continue
			}
			out = append(out, p.undescribed(sub, x[name], at+"."+name)...)
		}
	case []any:
		items, ok := node["items"].(map[string]any)
		if !ok {
			return nil
		}
		for i, e := range x {
			out = append(out, p.undescribed(items, e, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return out
}

func (p *prober) def(name string) map[string]any {
	def, _ := p.defs[name].(map[string]any)
	return def
}

func (p *prober) params(method string) map[string]any {
	params, _ := p.def("Params")["$defs"].(map[string]any)
	def, _ := params[method].(map[string]any)
	if def == nil {
		p.t.Fatalf("%s: the schema describes no params", method)
	}
	return def
}

// resolve follows a node's $ref ("#/$defs/Count").
func (p *prober) resolve(node map[string]any) map[string]any {
	if ref, ok := node["$ref"].(string); ok && len(ref) > len("#/$defs/") {
		if def := p.def(ref[len("#/$defs/"):]); def != nil {
			return def
		}
	}
	return node
}

func required(node map[string]any) []string {
	var out []string
	req, _ := node["required"].([]any)
	for _, r := range req {
		if s, ok := r.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func property(node map[string]any, name string) map[string]any {
	props, _ := node["properties"].(map[string]any)
	sub, _ := props[name].(map[string]any)
	return sub
}

func loadDefs(t *testing.T) map[string]any {
	t.Helper()
	var doc struct {
		Defs map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(schema.Protocol, &doc); err != nil {
		t.Fatalf("protocol.schema.json: %v", err)
	}
	return doc.Defs
}
