// Package differential holds the differential properties: the reference
// as oracle on generated inputs. It is the one part of the judge that
// imports the reference (internal/server, internal/inprocess); every other
// property checks an invariant or a model without it.
//
// Each one draws a sequence of requests (a window's create and trims, a
// single budget.count, …), sends every request to the target and to the
// built-in reference in process, and compares the two responses member by
// member under the rules of spec/golden.md (package jsoncmp): free text
// left out, numbers as doubles, errors by kind. Where the spec leaves a
// member open it is listed in openMembers and left out too. A failure
// names the clause that governs the first differing member, shows both
// values by JSON path and every request sent; rapid shrinks it to the
// smallest sequence first.
package differential

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/server"
)

// All are the properties that compare the target with
// the reference (or with exact token vectors), capability by capability.
func All() []prop.Property {
	return slices.Concat(diffWindowProperties(), diffHistoryProperties(), diffBudgetProperties(), diffConfigProperties(), exactVectorProperties())
}

// call is one request of a differential sequence. A params member named
// "window" whose value is a windowRef is replaced, on each side, by the
// handle that side returned from the sequence's window.create number k.
type call struct {
	Method string
	Params map[string]any
}

// windowRef names the k-th window.create of a sequence.
type windowRef int

// GoString keeps rapid's logs of drawn sequences readable.
func (c call) GoString() string { return c.Method + " " + string(gen.MustJSON(c.Params)) }

// openMembers are the members of a result the spec leaves open: left out
// of the differential comparison (and listed in spec/golden.md).
var openMembers = []jsoncmp.Pattern{}

// diagnosticsMembers are what level diagnostics checks (D-42): a target
// that does not declare the level is not compared on them.
var diagnosticsMembers = jsoncmp.Diagnostics

// openFor is what the comparison leaves out for tg.
func openFor(tg target.Target) []jsoncmp.Pattern {
	if prop.Diagnostics(tg) {
		return openMembers
	}
	return append(slices.Clone(openMembers), diagnosticsMembers...)
}

// normalize writes the spellings the protocol makes equal in one way: a
// trim that made no call may leave summarizer_calls out, which means [].
// The member is written into the text, not the object decoded and encoded
// again: what is compared is the value the text decodes to
// (jsoncmp.Compare decodes both sides unless they are the same text), and
// that value is the one the re-encoding gave (FuzzNormalizeAsDecoded).
func normalize(method string, r jsoncmp.Response) jsoncmp.Response {
	if method != protocol.MethodWindowTrim || r.Error != nil || !jsonscan.Valid(r.Result) {
		return r
	}
	members, ok := jsonscan.SplitObject(r.Result)
	if !ok || members == nil {
		return r // not an object, or null
	}
	if _, ok := members.Get("summarizer_calls"); ok {
		return r
	}
	const calls = `"summarizer_calls":[]`
	body := bytes.TrimSpace(r.Result)
	b := make([]byte, 0, len(body)+len(calls)+1)
	b = append(append(b, '{'), calls...)
	if len(members) > 0 {
		b = append(b, ',')
	}
	return jsoncmp.Response{Result: append(b, body[1:]...)}
}

// differ sends a sequence to tg and to the reference and fails on the first
// response that differs. clauseOf names the clause of a differing member.
func differ(ctx context.Context, f prop.Failer, tg target.Target, seq []call, clauseOf func(method, path string) string) {
	f.Helper()
	ref := inprocess.Oracle(server.Reference{}) // fresh: its handles start from nothing
	var refHandles, tgHandles []string
	// The requests sent so far, written out only for a failure: encoding
	// every request's params to show none of them was 0.7 % of the
	// harness's CPU over the wire. Params are not changed once drawn, so
	// the text is the one written at once.
	var sent []call
	sentText := func(sep string) string {
		lines := make([]string, len(sent))
		for i, c := range sent {
			lines[i] = c.Method + " " + string(gen.MustJSON(c.Params))
		}
		return strings.Join(lines, sep)
	}
	for i, c := range seq {
		refParams, ok1 := bind(c.Params, refHandles)
		tgParams, ok2 := bind(c.Params, tgHandles)
		if !ok1 || !ok2 {
			continue // its window was not created: an earlier create failed on both sides
		}
		want := respond(ctx, ref, c.Method, refParams)
		if want.failure != nil {
			f.Fatalf("the reference failed on %s: %v", c.Method, want.failure)
		}
		if want.Error != nil && protocol.IsValidationKind(want.Error.Kind()) && !prop.Validation(tg) {
			// Refusing malformed input is level validation (D-42): a
			// target that does not declare it is never sent the request,
			// and a window that was not created is unbound on both sides.
			if c.Method == protocol.MethodWindowCreate {
				refHandles, tgHandles = append(refHandles, ""), append(tgHandles, "")
			}
			continue
		}
		sent = append(sent, call{Method: c.Method, Params: refParams})
		got := respond(ctx, tg, c.Method, tgParams)
		if got.failure != nil {
			deviation.Note(ctx, f, deviation.Parts{Sent: sentText("\n")})
			f.Fatalf("%s: %v\nrequests sent:\n  %s", clauseOf(c.Method, ""), got.failure, sentText("\n  "))
		}
		if c.Method == protocol.MethodWindowCreate {
			refHandles = append(refHandles, handleOf(want.Response))
			tgHandles = append(tgHandles, handleOf(got.Response))
		}
		d := jsoncmp.Compare(c.Method, normalize(c.Method, want.Response), normalize(c.Method, got.Response), jsoncmp.Rules{Open: openFor(tg)})
		if d == nil {
			continue
		}
		deviation.Note(ctx, f, deviation.Parts{Sent: sentText("\n"), Got: d.Path + ": " + stableHandles(d.Got, tgHandles, refHandles), Want: d.Path + ": " + d.Want})
		f.Fatalf("%s: %s differs from the reference (request %d of %d)\n  %s\n  reference: %s\nrequests sent:\n  %s",
			clauseOfDifference(c.Method, d.Path, want.Response, clauseOf), c.Method, i+1, len(seq), stableHandles(d.String(), tgHandles, refHandles), summarize(want.Response), sentText("\n  "))
	}
}

// clauseOfDifference is the clause a difference is reported under: UNIT-2
// when the reference refused a malformed tool structure (its error names
// the structure's code), whatever the method's own clauses; else clauseOf's.
func clauseOfDifference(method, path string, want jsoncmp.Response, clauseOf func(method, path string) string) string {
	if want.Error != nil && want.Error.Kind() == protocol.KindInvalidMessage {
		for _, code := range gen.StructureCodes {
			if strings.Contains(want.Error.Message, code) {
				return "UNIT-2"
			}
		}
	}
	return clauseOf(method, path)
}

// stableHandles writes the target's handles as the reference's (w1, …):
// a failure message must read the same when rapid replays the case.
func stableHandles(text string, tgHandles, refHandles []string) string {
	for i, h := range tgHandles {
		if h != "" && h != refHandles[i] {
			text = strings.ReplaceAll(text, fmt.Sprintf("%q", h), fmt.Sprintf("%q", refHandles[i]))
		}
	}
	return text
}

func summarize(r jsoncmp.Response) string {
	if r.Error != nil {
		return "the error " + r.Error.Kind()
	}
	return jsoncmp.Clip(r.Result)
}

type answer struct {
	jsoncmp.Response
	failure error // the target did not answer by the protocol
}

func respond(ctx context.Context, tg target.Target, method string, params map[string]any) answer {
	raw, err := tg.Call(ctx, method, params)
	if err == nil {
		return answer{Response: jsoncmp.Response{Result: raw}}
	}
	var pe *protocol.Error
	if errors.As(err, &pe) {
		return answer{Response: jsoncmp.Response{Error: pe}}
	}
	return answer{failure: err}
}

// handleOf is the handle a window.create answered with, as encoding/json
// decodes the result into its struct; read in place (jsonscan.Fields)
// where that can say.
func handleOf(r jsoncmp.Response) string {
	var res struct {
		Window string `json:"window"`
	}
	if r.Error != nil {
		return ""
	}
	if members, ok := readObject(r.Result); ok && jsonscan.Fields(members, &res) {
		return res.Window
	}
	res.Window = ""
	if json.Unmarshal(r.Result, &res) != nil {
		return ""
	}
	return res.Window
}

// readObject is the members of raw, a JSON object (or null), read in place;
// false when raw is neither, and then the reader's json.Unmarshal says
// what is wrong.
func readObject(raw []byte) (jsonscan.Object, bool) {
	if !jsonscan.Valid(raw) {
		return nil, false
	}
	return jsonscan.SplitObject(raw)
}

// bind replaces a windowRef by a side's handle; false when there is none.
func bind(params map[string]any, handles []string) (map[string]any, bool) {
	ref, ok := params["window"].(windowRef)
	if !ok {
		return params, true
	}
	if int(ref) >= len(handles) || handles[ref] == "" {
		return nil, false
	}
	out := make(map[string]any, len(params))
	for k, v := range params {
		out[k] = v
	}
	out["window"] = handles[ref]
	return out, true
}

// diffProperty makes a differential property of a sequence generator and
// its fixed examples.
// draw gets the provider formats the target accepts (providerFormats).
func diffProperty(id, capability, doc string, clauses []string, draw func(t *rapid.T, formats []string) []call, examples map[string][]call, clauseOf func(method, path string) string) prop.Property {
	p := prop.Property{ID: id, Capability: capability, Doc: doc, Clauses: clauses, Differential: true,
		Check: func(t *rapid.T, tg target.Target) {
			seq := rapid.Custom(func(t *rapid.T) []call { return draw(t, prop.ProviderFormats(tg.Info())) }).Draw(t, "requests")
			differ(t.Context(), t, tg, seq, clauseOf)
		},
	}
	for _, name := range sortedKeys(examples) {
		seq := examples[name]
		p.Examples = append(p.Examples, edgeExample(name, func() []call { return seq }, clauseOf))
	}
	return p
}

// edgeExample is an edge example that sends the requests seq builds and
// compares each answer with the reference's.
func edgeExample(name string, seq func() []call, clauseOf func(method, path string) string) prop.Example {
	return prop.Example{Name: name, Run: func(f prop.Failer, tg target.Target) {
		calls := seq()
		if !gen.SendsOnly(prop.ProviderFormats(tg.Info()), calls) {
			return // not in a format the implementation declares (D-42)
		}
		differ(context.Background(), f, tg, calls, clauseOf)
	}}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// clauseTable maps a method and the first members of a differing path to
// the governing clause: the longest matching prefix wins; "" matches any
// path (and a transport failure or an error).
type clauseTable map[string]map[string]string

func (ct clauseTable) of(method, path string) string {
	rules := ct[method]
	best, bestLen := "", -1
	for prefix, clause := range rules {
		if strings.HasPrefix(path, prefix) && len(prefix) > bestLen {
			best, bestLen = clause, len(prefix)
		}
	}
	if best == "" {
		return "PROTO-1"
	}
	return best
}
