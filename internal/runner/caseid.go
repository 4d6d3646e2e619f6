package runner

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	messages "github.com/cucumber/messages/go/v21"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/trace"
)

var clauseTag = regexp.MustCompile(`^@([A-Z]+-[0-9]+)$`)

// ScenarioCase derives a scenario's stable case from its name and tags:
// ID is "<first clause>/<name as kebab-case>" (see Slug). The ID changes
// only when the scenario is renamed or its first clause tag changes; a
// property's ID is "prop/<name>" and never changes.
func ScenarioCase(name, uri string, tags []string) (result.Case, error) {
	c := result.Case{Kind: result.Scenario, Name: name, Source: uri}
	for _, t := range tags {
		if m := clauseTag.FindStringSubmatch(t); m != nil {
			if !slices.Contains(c.Clauses, m[1]) {
				c.Clauses = append(c.Clauses, m[1])
			}
			continue
		}
		if _, ok := formatTags[t]; ok {
			continue // read by pickleFormats
		}
		if lv, ok := levelTags[t]; ok {
			c.Level = lv
			continue
		}
		if cp := strings.TrimPrefix(t, "@"); slices.Contains(protocol.Capabilities(), cp) || protocol.IsGuaranteeCapability(cp) {
			c.Capability = cp
			continue
		}
		return result.Case{}, fmt.Errorf("%s: scenario %q has tag %s, which is neither a clause ID nor a capability", uri, name, t)
	}
	if len(c.Clauses) == 0 {
		return result.Case{}, fmt.Errorf("%s: scenario %q is not tagged with any clause ID", uri, name)
	}
	slug := Slug(name)
	if slug == "" {
		return result.Case{}, fmt.Errorf("%s: scenario %q has no letter or digit to derive its ID from", uri, name)
	}
	c.ID = c.Clauses[0] + "/" + slug
	if c.Level == "" {
		c.Level = levelOf(c.Clauses)
	}
	return c, nil
}

// PickleCase is the case of a scenario as godog hands it over, its level
// and formats included (D-42); uri is its feature file.
func PickleCase(p *messages.Pickle, uri string) (result.Case, error) {
	tags := make([]string, len(p.Tags))
	for i, t := range p.Tags {
		tags[i] = t.Name
	}
	c, err := ScenarioCase(p.Name, uri, tags)
	if err != nil {
		return result.Case{}, err
	}
	c.Formats = pickleFormats(p)
	return c, nil
}

// Slug turns a name into kebab-case ASCII. A minus sign before a number
// is kept as "minus", so that "-1" and "1" never share an ID.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	rs := []rune(strings.ToLower(name))
	for i, r := range rs {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case r == '.':
			b.WriteRune('.') // keeps numbers like 0.5 readable
			dash = false
		case r == '+':
			b.WriteString("-plus-")
			dash = false
		case r == '-' && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9' && (i == 0 || !isAlnum(rs[i-1])):
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteString("minus-")
			dash = true
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.Trim(strings.ReplaceAll(b.String(), "--", "-"), "-.")
}

func isAlnum(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// Cases lists every scenario and property without running anything.
func Cases(opts Options) ([]result.Case, error) {
	return listCases(opts)
}

// TraceCases lists the selected cases as the traceability model of package
// spec takes them.
func TraceCases(opts Options) ([]trace.Case, error) {
	all, err := listCases(opts)
	if err != nil {
		return nil, err
	}
	out := make([]trace.Case, len(all))
	for i, c := range all {
		out[i] = trace.Case{ID: c.ID, Clauses: c.Clauses, Property: c.Kind == result.Property}
	}
	return out, nil
}

func listCases(opts Options) ([]result.Case, error) {
	if opts.Features == nil {
		opts.Features = features.FS
	}
	if opts.Properties == nil {
		opts.Properties = Properties()
	}
	var out []result.Case
	seen := map[string]string{}
	err := eachScenario(opts.Features, func(p *messages.Pickle, _ *messages.Scenario, c result.Case) error {
		if prev, dup := seen[c.ID]; dup {
			return fmt.Errorf("two scenarios have the ID %s (%s and %s): give one a distinct name", c.ID, prev, p.Uri)
		}
		seen[c.ID] = p.Uri
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range opts.Properties {
		c := propertyCase(p)
		if _, dup := seen[c.ID]; dup {
			return nil, fmt.Errorf("two cases have the ID %s", c.ID)
		}
		seen[c.ID] = "properties"
		out = append(out, c)
	}
	return out, nil
}

// tagNames are the names of a scenario's tags as godog compiled them.
func tagNames(tags []*messages.PickleTag) []string {
	names := make([]string, len(tags))
	for i, t := range tags {
		names[i] = t.Name
	}
	return names
}

func propertyCase(p prop.Property) result.Case {
	level := p.Level
	if level == "" {
		level = levelOf(p.Clauses)
	}
	return result.Case{ID: p.ID, Kind: result.Property, Name: p.Doc, Clauses: p.Clauses, Capability: p.Capability, Level: level}
}
