package trimdecl

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
)

// TestSecondDeclarationRefusesContradictions: a declaration that
// contradicts itself, or uses a member of the second declaration without
// "version": 2, is refused with an error naming the member (ANY-10, D-60).
func TestSecondDeclarationRefusesContradictions(t *testing.T) {
	for _, c := range []struct{ decl, member string }{
		{`{"name":"t","bound":"messages","guarantees":["subsequence"],"head":2}`, "head"},
		{`{"name":"t","bound":"messages","guarantees":["subsequence"],"version":3}`, "version"},
		{`{"name":"t","bound":"messages","guarantees":["subsequence"],"version":2,"system":"first"}`, "system"},
		{`{"name":"t","bound":"messages","guarantees":["system"],"version":2,"system":"second"}`, "system"},
		{`{"name":"t","bound":"messages","guarantees":["subsequence"],"version":2,"slack":"unit"}`, "slack"},
		{`{"name":"t","bound":"tokens","counter":"chars4","guarantees":["bound"],"version":2,"results":"one"}`, "results"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"version":2,"count":{"over":"joined"}}`, "count"},
		{`{"name":"t","bound":"tokens","counter":"chars4","guarantees":["bound"],"version":2,"count":{"separator":" "}}`, "count.separator"},
		{`{"name":"t","bound":"tokens","counter":"native","guarantees":["bound"],"version":2,"count":{"tool_payloads":false}}`, "count"},
		{`{"name":"t","bound":"tokens","counter":"native","guarantees":["bound"]}`, "counter"},
		{`{"name":"t","bound":"messages","guarantees":["head"],"version":2,"head":1}`, "guarantees"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"version":2,"markers":{"role":"system"}}`, "markers.prefix"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"version":2,"markers":{"role":"tool","prefix":"x"}}`, "markers.role"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"version":2,"limit_min":-1}`, "limit_min"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"version":2,"start":"assistant"}`, "start"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"fallback":"last_message"}`, "fallback"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"version":2,"fallback":"last_unit"}`, "fallback"},
		{`{"name":"t","bound":"messages","guarantees":["bound","units"],"version":2,"fallback":"last_message"}`, "fallback"},
		{`{"name":"t","bound":"messages","guarantees":["bound","last_unit"],"version":2,"fallback":"last_message"}`, "fallback"},
		{`{"name":"t","bound":"messages","guarantees":["bound"],"version":2,"fallback":"last_message","refuses":"nothing_fits"}`, "fallback"},
		{`{"name":"t","bound":"messages","guarantees":["fallback"],"version":2,"fallback":"last_message"}`, "guarantees"},
	} {
		var d protocol.TrimmerDecl
		if err := json.Unmarshal([]byte(c.decl), &d); err != nil {
			t.Fatal(err)
		}
		err := CheckTrimmers([]string{protocol.CapTrimmer}, []protocol.TrimmerDecl{d})
		if err == nil || !strings.Contains(err.Error(), "trimmers[0]."+c.member) {
			t.Errorf("%s: got %v, want an error naming trimmers[0].%s", c.decl, err, c.member)
		}
	}
	var ok protocol.TrimmerDecl
	good := `{"name":"t","bound":"tokens","counter":"native","guarantees":["subsequence","system","bound"],"version":2,` +
		`"system":"first","head":1,"markers":{"role":"system","prefix":"["},"slack":"unit","limit_min":1,"start":"user","count":{"over":"message"},` +
		`"fallback":"last_message"}`
	if err := json.Unmarshal([]byte(good), &ok); err != nil {
		t.Fatal(err)
	}
	if err := CheckTrimmers([]string{protocol.CapTrimmer}, []protocol.TrimmerDecl{ok}); err != nil {
		t.Fatalf("a consistent second declaration is refused: %v", err)
	}
	for _, g := range []string{protocol.GuaranteeTotal, protocol.GuaranteeHead, protocol.GuaranteeStart, protocol.GuaranteeCounter, protocol.GuaranteeFallback} {
		if !ok.Claims(g) {
			t.Errorf("the second declaration does not claim %q through its members", g)
		}
	}
}
