package protocol

import (
	"encoding/json"
)

// The shapes of the methods of the capability history.

// HistoryClassifyParams classifies messages.
type HistoryClassifyParams struct {
	Messages []json.RawMessage `json:"messages"`
}

// HistoryClassifyResult gives each message's class and the units as
// [start, end) pairs.
type HistoryClassifyResult struct {
	Classes []string `json:"classes"`
	Units   [][2]int `json:"units"`
}

// HistoryPruneParams prunes orphaned user prompts.
type HistoryPruneParams struct {
	Messages []json.RawMessage `json:"messages"`
}

// HistoryPruneResult is the pruned history and the input positions removed.
type HistoryPruneResult struct {
	Messages []json.RawMessage `json:"messages"`
	Removed  []int             `json:"removed"`
}

// HistoryBuildParams builds the messages for a model call.
type HistoryBuildParams struct {
	Messages    []json.RawMessage `json:"messages"`
	MaxMessages json.RawMessage   `json:"max_messages"`
}

// Repair is a repair Build made to a malformed history.
type Repair struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Indexes []int  `json:"indexes"`
}

// HistoryBuildResult is what would be sent, and the repairs made.
type HistoryBuildResult struct {
	Messages []json.RawMessage `json:"messages"`
	Warnings []Repair          `json:"warnings"`
}
