package check

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/check/*.want from what check finds (review the diff)")

// goldenDir holds recorded request files built by hand from the clauses
// of SPEC.md section 8e, each with the findings it must give, one a line,
// in NAME.want; NAME.group-by, when present, holds the -group-by pointer.
const goldenDir = "../../testdata/check"

// TestGoldenRecordings: conform check finds exactly the expected findings
// in every recorded file — no more (a false alarm blocks a CI gate), no
// fewer.
func TestGoldenRecordings(t *testing.T) {
	files, err := os.ReadDir(goldenDir)
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		ext := filepath.Ext(f.Name())
		if ext != ".jsonl" && ext != ".json" && ext != ".har" {
			continue
		}
		n++
		name := strings.TrimSuffix(f.Name(), ext)
		t.Run(name, func(t *testing.T) {
			got := strings.Join(checkFile(t, filepath.Join(goldenDir, f.Name()), name), "\n") + "\n"
			wantPath := filepath.Join(goldenDir, name+".want")
			if *update {
				require.NoError(t, os.WriteFile(wantPath, []byte(got), 0o644))
			}
			want, err := os.ReadFile(wantPath)
			require.NoError(t, err)
			assert.Equal(t, string(want), got)
		})
	}
	assert.GreaterOrEqual(t, n, 4, "recorded files in %s", goldenDir)
}

// checkFile is every finding of one recorded file, as conform check
// words them.
func checkFile(t *testing.T, path, name string) []string {
	t.Helper()
	opts := Options{}
	if g, err := os.ReadFile(filepath.Join(goldenDir, name+".group-by")); err == nil {
		opts.GroupBy, err = ParsePointer(strings.TrimSpace(string(g)))
		require.NoError(t, err)
	}
	c := New(opts)
	in, err := os.Open(path)
	require.NoError(t, err)
	defer in.Close()
	var out []string
	require.NoError(t, Read(filepath.Base(path), in, func(r Record) {
		for _, l := range c.Add(r) {
			out = append(out, l.String())
		}
	}))
	return out
}

// TestPrettyPrintedMessagesCompareAsCompact: a message written with white
// space between its tokens is the same message as its compact form (MSG-2),
// so a log that pretty-prints one request and not the next reads as a
// trim that kept it.
func TestPrettyPrintedMessagesCompareAsCompact(t *testing.T) {
	c := New(Options{GroupBy: Pointer{"user"}})
	log := `{"user":"c","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"a\n\"b\""}]}
{"user":"c","messages":[{"role": "system", "content": "Be brief."},{"role": "user", "content": "a\n\"b\""},{"role":"assistant","content":"ok"}]}
`
	var got []string
	require.NoError(t, Read("log", strings.NewReader(log), func(r Record) {
		for _, l := range c.Add(r) {
			got = append(got, l.String())
		}
	}))
	assert.Empty(t, got)
	assert.True(t, looksCompact([]byte(`{"a":"x \" y","b":[1,2]}`)))
	assert.False(t, looksCompact([]byte(`{"a": 1}`)))
}
