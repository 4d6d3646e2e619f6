package target

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
)

// claimed reports, for "trimmer/<guarantee>", whether capability trimmer is
// declared and some declared trimmer claims the guarantee.
func (i Info) claimed(capability string) bool {
	g := strings.TrimPrefix(capability, protocol.CapTrimmer+"/")
	return slices.Contains(i.Capabilities, protocol.CapTrimmer) &&
		slices.ContainsFunc(i.Trimmers, func(d protocol.TrimmerDecl) bool { return d.Claims(g) })
}

// Claiming lists the declared trimmers that claim a guarantee.
func (i Info) Claiming(guarantee string) []protocol.TrimmerDecl {
	var out []protocol.TrimmerDecl
	for _, d := range i.Trimmers {
		if d.Claims(guarantee) {
			out = append(out, d)
		}
	}
	return out
}

// TrimmerTrim calls trimmer.trim; limit is sent as given (a JSON number).
func TrimmerTrim(ctx context.Context, t Target, trimmer string, msgs []json.RawMessage, limit int) ([]json.RawMessage, error) {
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	lim, _ := json.Marshal(limit)
	var r protocol.TrimmerTrimResult
	err := invoke(ctx, t, protocol.MethodTrimmerTrim, protocol.TrimmerTrimParams{Trimmer: trimmer, Messages: msgs, Limit: lim}, &r)
	return r.Messages, err
}
