// Package spec embeds convspec's normative text so that the conformance
// suite can name, quote and cross-check every clause it tests.
package spec

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/convspec/convspec/conformance/protocol"
)

//go:embed SPEC.md
var text string

// Text is SPEC.md.
func Text() string { return text }

// Clause is one numbered requirement of SPEC.md.
type Clause struct {
	ID    string // e.g. "WIN-3"
	Title string
	// Capability is the protocol capability the clause belongs to; empty
	// for clauses every implementation must meet.
	Capability string
	// Level is the clause's level: LevelCore, LevelValidation or
	// LevelDiagnostics.
	Level string
	Text  string
}

// Levels of a clause (SPEC.md, introduction; D-42): the levels an
// implementation declares in its handshake, named once, by protocol.
const (
	LevelCore        = protocol.LevelCore
	LevelValidation  = protocol.LevelValidation
	LevelDiagnostics = protocol.LevelDiagnostics
)

var (
	clauseHeading = regexp.MustCompile("^#### ([A-Z]+-[0-9]+) — (.+)$")
	capabilityRe  = regexp.MustCompile("^Capability: (?:`([a-z.0-9_]+)`|none)")
	levelRe       = regexp.MustCompile("^Level: (.*)$")
	parsed        = sync.OnceValues(func() ([]Clause, error) { return Parse(text) })
)

// Clauses lists every clause in document order.
func Clauses() []Clause {
	cs, err := parsed()
	if err != nil {
		panic(fmt.Sprintf("spec: embedded SPEC.md is malformed: %v", err)) // caught by spec's tests
	}
	return cs
}

// Lookup finds a clause by ID.
func Lookup(id string) (Clause, bool) {
	for _, c := range Clauses() {
		if c.ID == id {
			return c, true
		}
	}
	return Clause{}, false
}

// Parse reads the clauses of a SPEC.md text: level-4 headings
// "#### ID — Title", each under a level-2 section that declares its
// capability with a line "Capability: `name`" or "Capability: none",
// each with a line "Level: core" (validation, diagnostics) in its body.
func Parse(doc string) ([]Clause, error) {
	var (
		out        []Clause
		capability string
		haveCap    bool
		cur        *Clause
		body       []string
	)
	seen := map[string]bool{}
	flush := func() error {
		if cur != nil {
			if cur.Level == "" {
				return fmt.Errorf("clause %s has no \"Level: …\" line", cur.ID)
			}
			cur.Text = strings.TrimSpace(strings.Join(body, "\n"))
			out = append(out, *cur)
		}
		cur, body = nil, nil
		return nil
	}
	for i, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			if err := flush(); err != nil {
				return nil, err
			}
			haveCap = false
		case capabilityRe.MatchString(line):
			capability = capabilityRe.FindStringSubmatch(line)[1]
			haveCap = true
		case cur != nil && cur.Level == "" && levelRe.MatchString(line):
			lv := levelRe.FindStringSubmatch(line)[1]
			if !slices.Contains(protocol.Levels(), lv) {
				return nil, fmt.Errorf("line %d: clause %s has level %q; want one of %s", i+1, cur.ID, lv, strings.Join(protocol.Levels(), ", "))
			}
			cur.Level = lv
		case strings.HasPrefix(line, "#### "):
			if err := flush(); err != nil {
				return nil, err
			}
			m := clauseHeading.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("line %d: clause heading must read \"#### ID — Title\": %q", i+1, line)
			}
			if !haveCap {
				return nil, fmt.Errorf("line %d: clause %s is in a section without a Capability line", i+1, m[1])
			}
			if seen[m[1]] {
				return nil, fmt.Errorf("line %d: clause %s is defined twice", i+1, m[1])
			}
			seen[m[1]] = true
			cur = &Clause{ID: m[1], Title: m[2], Capability: capability}
		case strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "### "):
			if err := flush(); err != nil {
				return nil, err
			}
		default:
			if cur != nil {
				body = append(body, line)
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no clauses found")
	}
	return out, nil
}
