package target

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The members of a response object (spec/protocol.md, "Framing").
var responseMembers = []string{"jsonrpc", "id", "result", "error"}

// inexactMember names a member of a response object whose name differs from
// one of the protocol's only in case: encoding/json would read `"Id"` as the
// id, but the protocol's names are exact (D-40).
func inexactMember(members map[string]json.RawMessage) error {
	for name := range members {
		for _, want := range responseMembers {
			if name != want && strings.EqualFold(name, want) {
				return fmt.Errorf("member %q is not %q (member names are exact)", name, want)
			}
		}
	}
	return nil
}
