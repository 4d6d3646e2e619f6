package jsoneq

import "testing"

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1,2]}`, `{ "b": [1, 2], "a": 1.0 }`, true},
		{`1e3`, `1000`, true},
		{`"\u00e9"`, `"é"`, true},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`null`, `false`, false},
		{`"1"`, `1`, false},
		{`0.1`, `0.10000000000000001`, true},
		{`{"a":1}`, `not json`, false},
	} {
		if got := Equal([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
