package server

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/spec/schema"
)

// TestRequestMembersAreTheSchemas: the exact names a request is read by
// are those of the published Request shape (D-63).
func TestRequestMembersAreTheSchemas(t *testing.T) {
	var doc struct {
		Defs struct {
			Request struct {
				Properties map[string]any `json:"properties"`
			}
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(schema.Protocol, &doc))
	require.ElementsMatch(t, slices.Collect(maps.Keys(doc.Defs.Request.Properties)), requestMembers)
}
