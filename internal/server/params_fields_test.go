package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
)

// paramsTypes are a new value of every params type the handler decodes.
var paramsTypes = []func() any{
	func() any { return new(protocol.WindowCreateParams) },
	func() any { return new(protocol.WindowTrimParams) },
	func() any { return new(protocol.WindowSummarizeParams) },
	func() any { return new(protocol.WindowEstimateParams) },
	func() any { return new(protocol.TokensEncodeParams) },
	func() any { return new(protocol.BudgetCountParams) },
	func() any { return new(protocol.BudgetCheckParams) },
	func() any { return new(protocol.BudgetPruneParams) },
	func() any { return new(protocol.BudgetCompressParams) },
	func() any { return new(protocol.BudgetPrepareParams) },
	func() any { return new(protocol.HistoryClassifyParams) },
	func() any { return new(protocol.HistoryPruneParams) },
	func() any { return new(protocol.HistoryBuildParams) },
	func() any { return new(protocol.ConfigResolveParams) },
	func() any { return new(protocol.LoopRunParams) },
	func() any { return new(protocol.TrimmerTrimParams) },
	func() any { return new(protocol.TrimmerCountParams) },
	func() any {
		return new(struct {
			Protocol protocol.Count `json:"protocol"`
		})
	},
}

// FuzzParamsFieldsAsUnmarshal: whatever params jsonscan.Fields reads, it
// reads as json.Unmarshal does, into every params type; what it does not
// read is left to json.Unmarshal.
func FuzzParamsFieldsAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"trimmer":"window","messages":[{"role":"user","content":"a"},{"role":"tool"}],"limit":3}`,
		`{"Trimmer":"a","trimmer":"b","MESSAGES":[1],"messages":null,"limit":null}`, `{"messages":[],"messages":[{}]}`,
		`{"window":"w\u0031","messages":[ {"role" : "user"} , 2 ],"summarizer":{"reply":"s","delay_ms":1.0}}`,
		"{\"text\":\"\xff\\u00e9\",\"text\":\"\\ud800\"}", `{"text":null}`, `{"text":7}`, `{"messages":{}}`, `{"messages":"x"}`,
		`{"model":"m","limits":{"m":3e3},"target_ratio":0.5,"messages":[]}`, `{"limits":{"m":2.5}}`, `{"max_messages":null,"Max_Messages":"3"}`,
		`{"config":{"format":"json","text":"{}"},"iterations":[{"prompt":{"role":"user"}}],"initial":null}`, `{"config":null}`,
		`{"protocol":1.0}`, `{"protocol":"1"}`, `{}`, `{"\u006dessages":[true]}`, `{"summarizer":null,"summarizer":{"error":"x"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		members, ok := jsonscan.SplitObject(data)
		if !json.Valid(data) || !ok {
			return
		}
		for _, newParams := range paramsTypes {
			got, want := newParams(), newParams()
			wantErr := json.Unmarshal(data, want)
			if !jsonscan.Fields(members, got) {
				continue
			}
			if wantErr != nil {
				t.Fatalf("%q into %T: scanned, but json.Unmarshal says %v", data, got, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q into %T:\n got  %#v\n want %#v", data, got, got, want)
			}
		}
	})
}

// TestParamsFieldsReadsTheMessages: the params of the methods most
// requests call are read by jsonscan.Fields, not left to json.Unmarshal.
func TestParamsFieldsReadsTheMessages(t *testing.T) {
	for _, tc := range []struct {
		params string
		v      any
	}{
		{`{"trimmer":"window","messages":[{"role":"user","content":"a"}],"limit":3}`, new(protocol.TrimmerTrimParams)},
		{`{"trimmer":"model.native","messages":[{"role":"user","content":"a"}]}`, new(protocol.TrimmerCountParams)},
		{`{"window":"w1","messages":[{"role":"user","content":"a"}]}`, new(protocol.WindowTrimParams)},
		{`{"text":"hello"}`, new(protocol.TokensEncodeParams)},
		{`{"messages":[{"role":"user","content":"a"}]}`, new(protocol.BudgetCountParams)},
		{`{"messages":[{"role":"user","content":"a"}],"max_messages":2}`, new(protocol.HistoryBuildParams)},
		{`{"config":{"max_messages":2}}`, new(protocol.WindowCreateParams)},
	} {
		members, _ := jsonscan.SplitObject([]byte(tc.params))
		if !jsonscan.Fields(members, tc.v) {
			t.Errorf("%T %s: left to json.Unmarshal", tc.v, tc.params)
		}
	}
}
