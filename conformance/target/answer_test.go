package target

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

// responseIDByUnmarshal is how the harness read a response's id before it
// read each line once: the line decoded by encoding/json into a struct.
func responseIDByUnmarshal(line []byte) (int64, bool) {
	var resp struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &resp) != nil {
		return 0, false
	}
	id, err := strconv.ParseInt(string(bytes.TrimSpace(resp.ID)), 10, 64)
	return id, err == nil
}

// FuzzResponseIDAsUnmarshal: a line read once gives the id encoding/json
// read from it, for any line, so that answers and strays are told apart
// as before.
func FuzzResponseIDAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":3,"result":{}}`, `{"ID":2,"id":3}`, `{"id":3,"Id":2}`, `{"\u0069d":4}`, `{"id":"3"}`, `{"id":null}`,
		`{"id":3.0}`, `{"id":-1}`, `{"id": 7 }`, `null`, `[{"id":1}]`, `"id"`, `{"id":1`, `{"id":1}{"id":2}`, `{"İd":5}`, `{"ıd":6}`,
		"{\"id\":1,\"x\":\"\xff\"}", `{"id":99999999999999999999}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		gotID, gotOK := responseID(line)
		wantID, wantOK := responseIDByUnmarshal(line)
		if gotID != wantID || gotOK != wantOK {
			t.Fatalf("%q: id %d (%v), encoding/json reads %d (%v)", line, gotID, gotOK, wantID, wantOK)
		}
	})
}
