package server

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
)

// The request reader as it was before it read a line with one scan: the
// line decoded by encoding/json into a map of raw members. It is the
// oracle decodeRequest is held to (FuzzDecodeRequestAsUnmarshal).
func decodeRequestByUnmarshal(line []byte) (protocol.Request, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		if json.Valid(line) {
			return protocol.Request{}, fmt.Errorf("want an object, got %s", jsonscan.JSONKind(line))
		}
		return protocol.Request{}, err
	}
	if members == nil {
		return protocol.Request{}, fmt.Errorf("want an object, got null")
	}
	var req protocol.Request
	for name := range members {
		for _, want := range requestMembers {
			if name != want && strings.EqualFold(name, want) {
				return protocol.Request{}, fmt.Errorf("member %q is not %q: member names are exact", name, want)
			}
		}
	}
	if v, ok := members["jsonrpc"]; ok {
		if err := json.Unmarshal(v, &req.JSONRPC); err != nil {
			return protocol.Request{}, fmt.Errorf(`"jsonrpc" must be a string: %w`, err)
		}
	}
	if v, ok := members["method"]; ok {
		if err := json.Unmarshal(v, &req.Method); err != nil {
			return protocol.Request{}, fmt.Errorf(`"method" must be a string: %w`, err)
		}
	}
	if v, ok := members["id"]; ok {
		if !utf8.Valid(v) {
			return protocol.Request{}, fmt.Errorf(`"id" is not valid UTF-8`)
		}
		req.ID = v
	}
	req.Params = members["params"]
	return req, nil
}

// FuzzDecodeRequestAsUnmarshal: decodeRequest gives what the reader built
// on encoding/json gives, for any line: the same error, or the same
// version, method, id and params. Of two inexact member names the old
// reader named either (map order); the new one names the first written.
func FuzzDecodeRequestAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"window.trim","params":{"window":"w1","messages":[{"role":"user","content":"a\"}]"}]}}`,
		`{"Id":1}`, `null`, `[1]`, `x`, `{"jsonrpc":2}`, "{\"id\":\"\xff\"}", `{"method":1}`, `{"METHOD":"x","method":"y"}`,
		` {"id" : 3 , "params" : null } `, `{"id":1,"id":"2","params":{},"params":[1]}`, `{"\u0069d":7,"method":"m"}`, `"s"`, `{"a":1}]`, "{\"method\":\"m\xff\",\"jsonrpc\":\"2.\\u0030\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, gotErr := decodeRequest(line)
		want, wantErr := decodeRequestByUnmarshal(line)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			if gotErr != nil && wantErr != nil && strings.Contains(gotErr.Error(), "member names are exact") && strings.Contains(wantErr.Error(), "member names are exact") {
				return
			}
			t.Fatalf("%q: error %v, the encoding/json reader says %v", line, gotErr, wantErr)
		}
		if gotErr == nil && (got.JSONRPC != want.JSONRPC || got.Method != want.Method || string(got.ID) != string(want.ID) ||
			string(got.Params) != string(want.Params) || (got.Params == nil) != (want.Params == nil)) {
			t.Fatalf("%q:\n got  %+v\n want %+v", line, got, want)
		}
	})
}
