package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/reference/message"
)

// The members of a request object (spec/protocol.md, "Framing").
var requestMembers = []string{"jsonrpc", "id", "method", "params"}

// decodeRequest reads one request object with the protocol's member names
// matched exactly. encoding/json matches them case-insensitively, so that
// `{"JSONRPC":"2.0","Id":1,…}` would be a request and `{"jsonrpC":…}` a
// notification; here a member whose name differs from a protocol name only
// in case is an error naming it, and any other unknown member is ignored
// (JSON-RPC 2.0). A string id must be valid UTF-8, since it is echoed as
// sent and the response line must be UTF-8.
func decodeRequest(line []byte) (protocol.Request, error) {
	if !jsonscan.Valid(line) {
		var v any
		return protocol.Request{}, json.Unmarshal(line, &v) // the syntax error, with its offset
	}
	if bytes.TrimLeft(line, " \t\r\n")[0] != '{' {
		return protocol.Request{}, fmt.Errorf("want an object, got %s", jsonscan.JSONKind(line))
	}
	// Read once, as slices of the line: the params, most of a request, are
	// decoded by the method's handler, not here.
	members, _ := jsonscan.SplitObject(line)
	var req protocol.Request
	for _, m := range members {
		for _, want := range requestMembers {
			if name := string(m.Name); name != want && strings.EqualFold(name, want) {
				return protocol.Request{}, fmt.Errorf("member %q is not %q: member names are exact", name, want)
			}
		}
	}
	if v, ok := members.Get("jsonrpc"); ok {
		if err := readString(v, &req.JSONRPC); err != nil {
			return protocol.Request{}, fmt.Errorf(`"jsonrpc" must be a string: %w`, err)
		}
	}
	if v, ok := members.Get("method"); ok {
		if err := readString(v, &req.Method); err != nil {
			return protocol.Request{}, fmt.Errorf(`"method" must be a string: %w`, err)
		}
	}
	if v, ok := members.Get("id"); ok {
		if !utf8.Valid(v) {
			return protocol.Request{}, fmt.Errorf(`"id" is not valid UTF-8`)
		}
		if v[0] == '"' {
			// an escaped unpaired surrogate is ASCII on the line, but the
			// id's value has no UTF-8 form either (protocol.md, D-48)
			if _, err := message.Compact(v); err != nil {
				return protocol.Request{}, fmt.Errorf(`"id" is not valid UTF-8: %w`, err)
			}
		}
		req.ID = v
	}
	req.Params, _ = members.Get("params")
	return req, nil
}

// readString decodes v, a valid JSON value, into s as json.Unmarshal does:
// a string in valid UTF-8 without escapes is its own bytes (D-90), which
// encoding/json would check again; any other value is left to it.
func readString(v []byte, s *string) error {
	if len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0 && utf8.Valid(v) {
		*s = string(v[1 : len(v)-1])
		return nil
	}
	return json.Unmarshal(v, s)
}
