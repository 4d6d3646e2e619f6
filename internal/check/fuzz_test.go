package check

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead: whatever a recorded file holds, the reader ends without a
// panic, hands out only bodies that are valid JSON or records that say
// why they are not, in the order of the file, and the checker judges every
// body it is given without a panic (D-57: bad input is reported, never
// fatal).
func FuzzRead(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*"))
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"", "\n\n", "[", "[]", "{", "{}\n{}", `{"log":{"entries":[{"request":{"postData":{"text":"{}"}}}]}}`,
		"{\n\"log\": 1}", "{\n\"messages\": [{\"role\":\"user\"}]\n}", "\xef\xbb\xbf{\"messages\":[]}\n",
		`{"messages":[{"role":"tool","tool_call_id":"a"}]}`, `[{"messages":null},1,"x"]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := New(Options{GroupBy: nil})
		keyed := New(Options{GroupBy: Pointer{"model"}, Body: Pointer{}})
		lastLine, lastElem := 0, -1
		err := Read("fuzz", bytes.NewReader(data), func(r Record) {
			if r.Err == nil && !json.Valid(r.Body) {
				t.Fatalf("%s: a body that is not JSON: %q", r.Where(), r.Body)
			}
			if r.Err != nil && r.Body != nil {
				t.Fatalf("%s: a record with both a body and an error", r.Where())
			}
			if r.Line > 0 {
				if r.Line <= lastLine {
					t.Fatalf("line %d after line %d", r.Line, lastLine)
				}
				lastLine = r.Line
			}
			if r.Element >= 0 && r.Line == 0 && r.Err == nil {
				if r.Element <= lastElem {
					t.Fatalf("element %d after element %d", r.Element, lastElem)
				}
				lastElem = r.Element
			}
			for _, l := range append(c.Add(r), keyed.Add(r)...) {
				if l.Where == "" || l.String() == "" {
					t.Fatalf("a finding without its place: %+v", l)
				}
			}
		})
		if err != nil {
			t.Fatalf("Read failed on an in-memory reader: %v", err)
		}
		c.Results()
	})
}
