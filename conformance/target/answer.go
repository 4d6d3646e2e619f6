package target

import (
	"bytes"
	"strconv"

	"github.com/convspec/convspec/internal/jsonscan"
)

// answer is a line of the implementation's output read once: whether it
// is JSON, checked once, and its members, as slices of the line, when it
// is an object (null is one without members, as encoding/json decodes it
// into a struct). The id that says which request it answers and the
// response's own members are read from it alike.
type answer struct {
	line    []byte
	read    bool // false for a raw line's answer, which is taken unread
	valid   bool
	members jsonscan.Object
	object  bool
}

func readAnswer(line []byte) answer {
	// jsonscan.Valid is json.Valid's verdict in half its time or less
	// (BenchmarkValid, D-89).
	a := answer{line: line, read: true, valid: jsonscan.Valid(line)}
	if a.valid {
		a.members, a.object = jsonscan.SplitObject(line)
	}
	return a
}

// id is the integer id of a response, read as encoding/json reads a
// struct with a member "id" (the last member whose name is "id" folding
// case): the harness tells answers and strays apart as it always did.
func (a answer) id() (int64, bool) {
	if !a.valid || !a.object {
		return 0, false
	}
	var raw []byte
	for _, m := range a.members {
		if bytes.EqualFold(m.Name, []byte("id")) {
			raw = m.Value
		}
	}
	id, err := strconv.ParseInt(string(bytes.TrimSpace(raw)), 10, 64)
	return id, err == nil
}

// earlier is earlierID of a line already read.
func (a answer) earlier(next int64) (int64, bool) {
	id, ok := a.id()
	return id, ok && id >= 1 && id < next
}
