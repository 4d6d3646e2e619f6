package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/membercheck"
	"github.com/convspec/convspec/spec/schema"
)

// decodeResultBefore is DecodeResult as it was before it judged results as
// written (D-89), kept as the oracle of the one that does: every result is
// decoded into the tree, checked member by member and against the JSON
// Schema, then decoded into its Go type. It checks the text by json.Valid
// and decodes it by json.Unmarshal alone, the verdict and the decoding
// jsonscan.Valid and jsonscan.Fields give (FuzzValidAsEncodingJSON,
// FuzzFieldsAsUnmarshal), so that the oracle shares no reading of the text
// with what it judges but the tree's, which FuzzValueAsDecoder holds to
// encoding/json.
func decodeResultBefore(method string, raw json.RawMessage, v any) error {
	tree, err := decodeValueBefore(raw)
	if err != nil {
		return fmt.Errorf("%w: result is not JSON: %v", ErrSchema, err)
	}
	if err := membercheck.CheckValue(tree, v); err != nil {
		var me *MemberError
		if errors.As(err, &me) && me.Got != "nothing" && me.Path != "result" {
			return err
		}
	}
	if err := schema.ResultValue(method, tree); err != nil {
		if errors.Is(err, schema.ErrNoSchema) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		if plain, ok := membercheck.IntegralNumbers(raw); ok && json.Unmarshal(plain, v) == nil {
			return nil
		}
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	return nil
}

// decodeValueBefore is membercheck.DecodeValue as it was, checking the
// text with encoding/json.
func decodeValueBefore(raw []byte) (any, error) {
	if json.Valid(raw) {
		return jsonscan.Value(raw), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimLeft(raw[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// resultTypes is the Go type each method's result is decoded into, as the
// harness decodes it; shutdown's null into an any.
var resultTypes = map[string]func() any{
	protocol.MethodInitialize:      func() any { return new(protocol.InitializeResult) },
	protocol.MethodShutdown:        func() any { return new(any) },
	protocol.MethodWindowCreate:    func() any { return new(protocol.WindowCreateResult) },
	protocol.MethodWindowTrim:      func() any { return new(protocol.WindowTrimResult) },
	protocol.MethodWindowEstimate:  func() any { return new(protocol.WindowEstimateResult) },
	protocol.MethodWindowSummarize: func() any { return new(protocol.WindowSummarizeResult) },
	protocol.MethodTokensEncode:    func() any { return new(protocol.TokensEncodeResult) },
	protocol.MethodBudgetCount:     func() any { return new(protocol.BudgetCountResult) },
	protocol.MethodBudgetCheck:     func() any { return new(protocol.BudgetCheckResult) },
	protocol.MethodBudgetPrune:     func() any { return new(protocol.BudgetPruneResult) },
	protocol.MethodBudgetCompress:  func() any { return new(protocol.BudgetCompressResult) },
	protocol.MethodBudgetPrepare:   func() any { return new(protocol.BudgetPrepareResult) },
	protocol.MethodHistoryClassify: func() any { return new(protocol.HistoryClassifyResult) },
	protocol.MethodHistoryPrune:    func() any { return new(protocol.HistoryPruneResult) },
	protocol.MethodHistoryBuild:    func() any { return new(protocol.HistoryBuildResult) },
	protocol.MethodConfigResolve:   func() any { return new(protocol.ConfigResolveResult) },
	protocol.MethodLoopRun:         func() any { return new(protocol.LoopRunResult) },
	protocol.MethodTrimmerTrim:     func() any { return new(protocol.TrimmerTrimResult) },
	protocol.MethodTrimmerCount:    func() any { return new(protocol.TrimmerCountResult) },
}

// resultSamples is a valid result of every method
// (spec/schema/testdata/results.json), as written there.
func resultSamples(t testing.TB) map[string]json.RawMessage {
	t.Helper()
	b, err := os.ReadFile("../../spec/schema/testdata/results.json")
	if err != nil {
		t.Fatal(err)
	}
	members, ok := jsonscan.SplitObject(b)
	if !json.Valid(b) || !ok {
		t.Fatal("results.json is not a JSON object")
	}
	out := map[string]json.RawMessage{}
	for _, m := range members {
		out[string(m.Name)] = m.Value
	}
	return out
}

// decodesAsBefore fails t unless DecodeResult and decodeResultBefore give raw,
// as the result of method, the same verdict: both nil or the same error
// text, of the same kinds, and the same decoded value.
func decodesAsBefore(t testing.TB, method string, newV func() any, raw []byte) {
	t.Helper()
	got, want := newV(), newV()
	gotErr := DecodeResult(method, raw, got)
	wantErr := decodeResultBefore(method, raw, want)
	// Of a result with several violations both name the first in the
	// order of their texts (spec/schema sorts them): compared once.
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Fatalf("%s %q:\n got  %v\n want %v", method, raw, gotErr, wantErr)
	}
	var gotMember, wantMember *MemberError
	if errors.Is(gotErr, ErrSchema) != errors.Is(wantErr, ErrSchema) ||
		errors.As(gotErr, &gotMember) != errors.As(wantErr, &wantMember) ||
		errors.Is(gotErr, schema.ErrNoSchema) != errors.Is(wantErr, schema.ErrNoSchema) {
		t.Fatalf("%s %q: the error %v is of other kinds than before", method, raw, gotErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %q:\n got  %#v\n want %#v", method, raw, got, want)
	}
}

// TestEveryResultHasASample: the samples and the Go types cover every
// method with a result schema, and every sample is valid and judged
// valid as written, without the tree: a keyword added to the schema that
// ResultPasses does not know, or a member check it cannot read, would
// send every result the slow way unnoticed.
func TestEveryResultHasASample(t *testing.T) {
	methods, err := schema.Methods()
	if err != nil {
		t.Fatal(err)
	}
	samples := resultSamples(t)
	slices.Sort(methods)
	if names := slices.Sorted(maps.Keys(samples)); !slices.Equal(names, methods) {
		t.Errorf("samples of %v, want one of each of %v", names, methods)
	}
	if names := slices.Sorted(maps.Keys(resultTypes)); !slices.Equal(names, methods) {
		t.Errorf("Go types of %v, want one of each of %v", names, methods)
	}
	for _, m := range methods {
		raw, newV := samples[m], resultTypes[m]
		if raw == nil || newV == nil {
			continue
		}
		if err := decodeResultBefore(m, raw, newV()); err != nil {
			t.Errorf("%s: the sample is not valid: %v", m, err)
		}
		if !membercheck.Passes(raw, newV()) || !schema.ResultPasses(m, raw) {
			t.Errorf("%s: the valid sample is not judged valid as written: member check %v, schema %v",
				m, membercheck.Passes(raw, newV()), schema.ResultPasses(m, raw))
		}
		decodesAsBefore(t, m, newV, raw)
	}
}

// mutationValues replace each value of a sample in turn: every JSON type,
// and the numbers and strings at the edges of the rules (a count written
// 3.0, one too large, -0, an escape).
var mutationValues = []string{
	`null`, `0`, `-0`, `-1`, `1`, `3.0`, `3e0`, `30E-1`, `2.5`, `1e400`, `-1e400`, `9007199254740991`, `9007199254740992`,
	`99999999999999999999`, `""`, `"x"`, `"\u00e9\n"`, "\"\xff\"", `true`, `false`, `[]`, `[1]`, `[-1]`, `[null]`, `["x"]`, `[[1,2]]`,
	`[{}]`, `[{"code":1}]`, `{}`, `{"a":1}`, `[{"role":"user"}]`,
}

// TestDecodeResultAsBeforeOnMutations: on every sample with each of its
// values replaced by each of mutationValues, each of its members removed,
// written twice (before and after) with a wrong value, or spelt with an
// escape or in upper case, or written twice, DecodeResult answers as it did before (D-89):
// the same error text, or the same value.
func TestDecodeResultAsBeforeOnMutations(t *testing.T) {
	samples := resultSamples(t)
	n := 0
	for _, m := range slices.Sorted(maps.Keys(samples)) {
		raw, newV := samples[m], resultTypes[m]
		if newV == nil {
			continue
		}
		for _, v := range spans(raw, raw) {
			for _, repl := range mutationValues {
				decodesAsBefore(t, m, newV, splice(raw, v.value, repl))
				n++
			}
			if v.name.end == 0 {
				continue
			}
			name := string(raw[v.name.start:v.name.end])
			for _, mutant := range [][]byte{
				splice(raw, span{v.name.start, v.value.end}, `"x":0`), // removed
				splice(raw, span{v.name.start, v.name.start}, name+`:"wrong",`),
				splice(raw, span{v.value.end, v.value.end}, ","+name+`:"wrong"`),
				splice(raw, span{v.value.end, v.value.end}, ","+name+`:null`),
				splice(raw, span{v.name.start, v.name.start}, name+":"+string(raw[v.value.start:v.value.end])+","), // written twice
				splice(raw, span{v.value.end, v.value.end}, ","+name+`:{}`),
				splice(raw, span{v.value.end, v.value.end}, ","+name+`:[]`),
				splice(raw, span{v.value.end, v.value.end}, ","+name+`:[null]`),
				splice(raw, span{v.value.end, v.value.end}, ","+name+`:[{}]`),
				splice(raw, v.name, `"\u00`+fmt.Sprintf("%02x", name[1])+name[2:]),
				splice(raw, v.name, string(bytes.ToUpper([]byte(name)))),
			} {
				decodesAsBefore(t, m, newV, mutant)
				n++
			}
		}
	}
	for _, raw := range []string{``, ` `, `{`, `[]`, `"x"`, `1`, `{} {}`, `{"a":1,}`, "{\"\xff\":1}"} {
		for m, newV := range resultTypes {
			decodesAsBefore(t, m, newV, []byte(raw))
		}
	}
	decodesAsBefore(t, "window.unknown", func() any { return new(protocol.WindowEstimateResult) }, []byte(`{"tokens":1}`))
	decodesAsBefore(t, "window.unknown", func() any { return new(protocol.WindowEstimateResult) }, []byte(`{"tokens":"1"}`))
	t.Logf("%d mutants decoded as before", n)
}

// FuzzDecodeResultAsBefore: on any text, as the result of every method
// (and of one the schema does not know), DecodeResult answers as it did
// before it judged results as written (D-89): the same error, word for
// word, or the same decoded value. The text is tried alone, and in place
// of a value of a valid result (the sample'th, its at'th value), where a
// mutation of bytes alone would seldom reach a member's rule.
func FuzzDecodeResultAsBefore(f *testing.F) {
	samples := resultSamples(f)
	methods := slices.Sorted(maps.Keys(samples))
	for i, m := range methods {
		f.Add([]byte(samples[m]), uint8(i), uint16(0))
		f.Add([]byte(`null`), uint8(i), uint16(2*i+1))
	}
	for i, seed := range []string{
		`{"tokens":3.0}`, `{"tokens":-0}`, `{"count":1e400}`, `{"tokens":1,"tokens":"x"}`, `{"\u0074okens":1}`, `{"TOKENS":1}`,
		`{"messages":[],"removed":[0,1.5]}`, `{"messages":{},"removed":[]}`, `{"summary":"s","summarizer_calls":[{"max_tokens":-1}]}`,
		`-1`, `3.0`, `""`, `[]`, `{}`, `[null]`,
	} {
		f.Add([]byte(seed), uint8(i), uint16(i))
	}
	f.Fuzz(func(t *testing.T, raw []byte, sample uint8, at uint16) {
		for m, newV := range resultTypes {
			decodesAsBefore(t, m, newV, raw)
		}
		decodesAsBefore(t, "window.unknown", func() any { return new(protocol.TrimmerCountResult) }, raw)
		m := methods[int(sample)%len(methods)]
		values := spans(samples[m], samples[m])
		if len(values) == 0 {
			return
		}
		v := values[int(at)%len(values)]
		decodesAsBefore(t, m, resultTypes[m], splice(samples[m], v.value, string(raw)))
	})
}

type span struct{ start, end int }

// valueSpan is a value of a sample and, for a member, its name.
type valueSpan struct{ name, value span }

// spans lists every value nested in v, a slice of raw, with the name of
// each member, by their offsets in raw.
func spans(raw, v []byte) []valueSpan {
	at := func(s []byte) int { return cap(raw) - cap(s) }
	var out []valueSpan
	if members, ok := jsonscan.SplitObject(v); ok && len(v) > 0 && v[0] == '{' {
		for _, m := range members {
			// The name's token ends where the text before the value's colon does.
			end := bytes.LastIndexByte(raw[:at(m.Value)], ':')
			end = bytes.LastIndexByte(raw[:end], '"') + 1
			start := bytes.LastIndexByte(raw[:end-1], '"')
			out = append(out, valueSpan{name: span{start, end}, value: span{at(m.Value), at(m.Value) + len(m.Value)}})
			out = append(out, spans(raw, m.Value)...)
		}
	}
	if elems, ok := jsonscan.SplitArray(v); ok {
		for _, e := range elems {
			out = append(out, valueSpan{value: span{at(e), at(e) + len(e)}})
			out = append(out, spans(raw, e)...)
		}
	}
	return out
}

// splice is raw with s replaced by repl.
func splice(raw []byte, s span, repl string) []byte {
	out := slices.Concat(raw[:s.start], []byte(repl), raw[s.end:])
	return out
}
