package spec_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/spec"
)

// idLike is anything written like a clause ID (WIN-3) or a decision (D-12).
var idLike = regexp.MustCompile(`\b[A-Z][0-9A-Z]*-[0-9]+\b`)

// notIDs are the words written like an ID that name no clause nor decision:
// encodings and models, and the made-up clauses of tests that check how an
// unknown clause is reported.
var notIDs = map[string]bool{
	"UTF-8": true, "UTF-16": true, "SHA-256": true, "IEEE-754": true, "GPT-3": true, "GPT-4": true,
	"X-1": true, "NOPE-1": true,
}

// TestEveryCitedIDExists: every clause ID and decision written in the Go
// code (examples/ aside: they cite nothing) and in features/ exists in
// SPEC.md or decisions.md, so that a renumbered or mistyped clause cannot
// go on tagging scenarios, failures and comments.
func TestEveryCitedIDExists(t *testing.T) {
	decisions := decisionIDs(t)
	cited := citedIDs(t, "..")
	require.NotEmpty(t, cited["WIN-3"], "the walk found no clause ID: it walks the wrong tree")
	for id, where := range cited {
		if notIDs[id] {
			continue
		}
		if strings.HasPrefix(id, "D-") {
			assert.True(t, decisions[id], "%s cites decision %s, which decisions.md does not define", where[0], id)
			continue
		}
		_, ok := spec.Lookup(id)
		assert.True(t, ok, "%s cites clause %s, which SPEC.md does not define (%d places)", where[0], id, len(where))
	}
}

// citedIDs maps each ID-like word under root to the places (file:line)
// that write it.
func citedIDs(t *testing.T, root string) map[string][]string {
	t.Helper()
	cited := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "examples":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") && !(strings.HasPrefix(rel, "features"+string(filepath.Separator)) && strings.HasSuffix(path, ".feature")) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			for _, id := range idLike.FindAllString(line, -1) {
				cited[id] = append(cited[id], rel+":"+strconv.Itoa(i+1))
			}
		}
		return nil
	})
	require.NoError(t, err)
	return cited
}

func decisionIDs(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("decisions.md")
	require.NoError(t, err)
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## (D-[0-9]+) — `).FindAllStringSubmatch(string(data), -1) {
		out[m[1]] = true
	}
	return out
}
