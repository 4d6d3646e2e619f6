package schema

import (
	"encoding/json"
	"os"
	"testing"
)

// TestResultNamesTheSameViolationEveryTime: a result that breaks several
// rules gets the same error on every call, so that the same seed prints
// the same report; the validator meets a result's members in map order.
func TestResultNamesTheSameViolationEveryTime(t *testing.T) {
	data, err := os.ReadFile("testdata/results.json")
	if err != nil {
		t.Fatal(err)
	}
	var samples map[string]json.RawMessage
	if err := json.Unmarshal(data, &samples); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for method, sample := range samples {
		var members map[string]json.RawMessage
		if json.Unmarshal(sample, &members) != nil || len(members) < 2 {
			continue
		}
		for name := range members {
			members[name] = json.RawMessage(`[[true]]`) // the wrong type for every member
		}
		broken, _ := json.Marshal(members)
		first := Result(method, broken)
		if first == nil {
			t.Errorf("%s: %s passes", method, broken)
			continue
		}
		checked++
		for range 30 {
			if err := Result(method, broken); err == nil || err.Error() != first.Error() {
				t.Fatalf("%s: %s: first %q, then %v", method, broken, first, err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no sample result has two members")
	}
}
