// Package schema publishes the JSON Schemas (draft 2020-12) of what crosses
// the suite's boundaries — the results of protocol v1's methods, the JSON
// report and the baseline file — and checks documents against them with a
// maintained validator (github.com/santhosh-tekuri/jsonschema/v6).
package schema

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Report is report.schema.json, the schema of `conform -json`.
//
//go:embed report.schema.json
var Report []byte

// Baseline is baseline.schema.json, the schema of a baseline file.
//
//go:embed baseline.schema.json
var Baseline []byte

// Protocol is protocol.schema.json: the result of every method of protocol
// v1 under $defs by method name, and the shapes they share.
//
//go:embed protocol.schema.json
var Protocol []byte

const protocolURL = "protocol.schema.json"

// Validate checks the JSON document doc against the schema and returns
// every violation, each naming where it is ($.cases[3].outcome). The error
// is for a schema or a document that cannot be read at all.
func Validate(schemaJSON, doc []byte) ([]error, error) {
	sch, err := compile(schemaJSON, "schema.json", "")
	if err != nil {
		return nil, err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	return violations(sch.Validate(v), "$"), nil
}

// protocolResults reads protocol.schema.json once and returns, for each
// method, what compiles its result's schema the first time it is asked
// for: a run compiles the schemas of the methods it sends (a one-case run
// one or two), not all of them, which was a tenth of a one-case run's CPU.
// A Compiler is not safe for concurrent use, hence mu; each schema is
// read-only once compiled.
var protocolResults = sync.OnceValues(func() (map[string]func() (*jsonschema.Schema, error), error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Protocol))
	if err != nil {
		return nil, fmt.Errorf("protocol.schema.json: %w", err)
	}
	defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
	c := jsonschema.NewCompiler()
	if err := c.AddResource(protocolURL, doc); err != nil {
		return nil, fmt.Errorf("protocol.schema.json: %w", err)
	}
	var mu sync.Mutex
	out := map[string]func() (*jsonschema.Schema, error){}
	for name := range defs {
		if !isMethod(name) {
			continue
		}
		out[name] = sync.OnceValues(func() (*jsonschema.Schema, error) {
			mu.Lock()
			defer mu.Unlock()
			sch, err := c.Compile(protocolURL + "#/$defs/" + name)
			if err != nil {
				return nil, fmt.Errorf("protocol.schema.json: %s: %w", name, err)
			}
			return sch, nil
		})
	}
	return out, nil
})

// isMethod tells a method's definition ("window.trim", "initialize") from a
// shared shape ("Metrics"): method names are lower case.
func isMethod(def string) bool { return def != "" && def[0] >= 'a' && def[0] <= 'z' }

// Methods lists the methods protocol.schema.json has a result schema for.
func Methods() ([]string, error) {
	results, err := protocolResults()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(results))
	for m := range results {
		out = append(out, m)
	}
	return out, nil
}

// ErrNoSchema is returned by Result for a method protocol.schema.json does
// not know.
var ErrNoSchema = errors.New("no result schema")

// Result checks raw, the result of method, against protocol.schema.json.
// The error names the first violation by its path from "result"
// ("result.metrics.evictedMessages is missing"); a member that is null
// where the schema wants a value counts as missing.
func Result(method string, raw []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		if _, serr := resultSchema(method); serr != nil {
			return serr
		}
		return fmt.Errorf("result is not JSON: %w", err)
	}
	return ResultValue(method, v)
}

// ResultValue is Result on a result already decoded with its numbers as
// json.Number (encoding/json's UseNumber), so that a caller that needs the
// decoded value too decodes once.
func ResultValue(method string, v any) error {
	sch, err := resultSchema(method)
	if err != nil {
		return err
	}
	if errs := violations(sch.Validate(v), "result"); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// resultSchema is the schema of method's result.
func resultSchema(method string) (*jsonschema.Schema, error) {
	results, err := protocolResults()
	if err != nil {
		return nil, err
	}
	compiled, ok := results[method]
	if !ok {
		return nil, fmt.Errorf("%w for method %q", ErrNoSchema, method)
	}
	return compiled()
}

func compile(schemaJSON []byte, url, ref string) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	sch, err := c.Compile(url + ref)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return sch, nil
}

var printer = message.NewPrinter(language.English)

// violations flattens a validation error into its leaves, each named by
// where it is in the document, root being the document's own name, in the
// order of their texts.
func violations(err error, root string) []error {
	var ve *jsonschema.ValidationError
	if err == nil {
		return nil
	}
	if !errors.As(err, &ve) {
		return []error{err}
	}
	var out []error
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		at := path(root, e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.Required:
			for _, m := range k.Missing {
				out = append(out, fmt.Errorf("%s is missing", path(at, []string{m})))
			}
		case *kind.Type:
			if k.Got == "null" && len(e.InstanceLocation) > 0 {
				out = append(out, fmt.Errorf("%s is missing", at))
			} else {
				out = append(out, fmt.Errorf("%s must be %s, got %s", at, strings.Join(k.Want, " or "), k.Got))
			}
		default:
			out = append(out, fmt.Errorf("%s: %s", at, e.ErrorKind.LocalizedString(printer)))
		}
	}
	walk(ve)
	// The validator meets an object's members in map order: sorted, the
	// first violation is the same on every run, and so is a report that
	// names it.
	slices.SortFunc(out, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return out
}

// path appends a JSON location to root: members as .name, array positions
// as [i].
func path(root string, loc []string) string {
	var b strings.Builder
	b.WriteString(root)
	for _, tok := range loc {
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			fmt.Fprintf(&b, "[%s]", tok)
		} else {
			b.WriteString("." + tok)
		}
	}
	return b.String()
}
