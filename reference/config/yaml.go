package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlToJSON turns a YAML config file into the JSON value it denotes, so that
// both formats are checked by one set of rules (CONF-6). YAML values with no
// JSON counterpart (.inf, .nan, non-string keys) are errors naming the path.
func yamlToJSON(text []byte) (json.RawMessage, error) {
	text = acceptVersion12(text)
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil // an empty file: every default
		}
		return nil, &Error{Reason: "not valid YAML: " + err.Error()}
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		return nil, &Error{Reason: "a config file holds one YAML document, this one has more"}
	}
	c := converter{active: map[*yaml.Node]bool{}, untagged: nonSpecificTags(text)}
	if err := c.writeJSON(&doc, nil, 0); err != nil {
		return nil, err
	}
	return c.buf.Bytes(), nil
}

// Limits on what a config file may expand to: a file is read whole, so an
// alias that refers to itself, aliases that multiply (the "billion laughs"),
// or nesting thousands of levels deep must end in an error naming the
// problem, never in a hang or an exhausted stack (CONF-6).
const (
	// maxDepth is how many mappings and sequences may nest, YAML or JSON
	// alike: a value inside the deepest one is no level of its own, so
	// 1,000 levels are read whatever the innermost holds, and 1,001 are
	// refused (CONF-6, protocol.md "Limits").
	maxDepth    = 1000
	maxExpanded = 16 << 20 // bytes of JSON
)

// tooDeep is the error for a mapping or sequence at level depth (the top
// one being level 1) that begins on line (0: a JSON document, whose errors
// name no line), nil when that level is allowed.
func tooDeep(path fmt.Stringer, depth int, line int) error {
	if depth <= maxDepth {
		return nil
	}
	at := ""
	if line > 0 {
		at = fmt.Sprintf("line %d: ", line)
	}
	return &Error{Path: path.String(), Reason: fmt.Sprintf("%snested more than %d levels deep", at, maxDepth)}
}

// where is the path of the value being written (nil: the document), spelled
// as join and "[i]" spell it only when an error names it: spelling every
// element's path cost more than writing the element (D-91).
type where struct {
	up    *where
	name  string // a member's name, when index < 0
	index int    // an element's index
}

func (w *where) String() string {
	switch {
	case w == nil:
		return ""
	case w.index >= 0:
		return w.up.String() + "[" + strconv.Itoa(w.index) + "]"
	}
	return join(w.up.String(), w.name)
}

// pathString is a path already spelled.
type pathString string

func (p pathString) String() string { return string(p) }

type converter struct {
	buf    bytes.Buffer
	active map[*yaml.Node]bool // anchored nodes being written: a cycle if met again
	// size is the length in bytes of the document's compact JSON (EST-3's
	// compact serialization) written so far, aliases expanded (D-48).
	size int
	// untagged holds where the non-specific tag "!" begins a node's
	// properties, which the parser does not report (see nonSpecificTags).
	untagged map[position]bool
}

// grow adds n bytes of compact JSON that belong to the value at path, and
// fails naming that path when they take the document beyond 16 MiB (D-48).
func (c *converter) grow(n int, path fmt.Stringer) error {
	c.size += n
	if c.size > maxExpanded {
		return &Error{Path: path.String(), Reason: fmt.Sprintf("the document expands to more than %d MiB of JSON (aliases that multiply?)", maxExpanded>>20)}
	}
	return nil
}

// writeJSON writes n, which depth mappings and sequences enclose.
func (c *converter) writeJSON(n *yaml.Node, path *where, depth int) error {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if err := tooDeep(path, depth+1, n.Line); err != nil {
			return err
		}
	}
	if n.Anchor != "" {
		// an alias inside the node it names refers to itself: the error
		// names the alias's own path (D-48)
		c.active[n] = true
		defer delete(c.active, n)
	}
	buf := &c.buf
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return c.writeJSON(n.Content[0], path, depth)
	case yaml.AliasNode:
		if c.active[n.Alias] {
			return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: the alias *%s refers to itself", n.Line, n.Value)}
		}
		return c.writeJSON(n.Alias, path, depth)
	case yaml.MappingNode:
		buf.WriteByte('{')
		if err := c.grow(1, path); err != nil {
			return err
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Tag == "!!merge" {
				return &Error{Path: path.String(), Reason: "merge keys (<<) are not supported in a config file"}
			}
			// a scalar key of any type is the member named by its text, as
			// JSON names a member by a string (D-48); only a mapping or a
			// sequence cannot be a name
			if k.Kind != yaml.ScalarNode {
				return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: a key must be a scalar, not a mapping or a sequence", k.Line)}
			}
			p := &where{up: path, name: k.Value, index: -1}
			if seen[k.Value] {
				return &Error{Path: p.String(), Reason: fmt.Sprintf("line %d: is given twice", k.Line)}
			}
			seen[k.Value] = true
			sep := 1
			if i > 0 {
				buf.WriteByte(',')
				sep = 2
			}
			name, _ := json.Marshal(k.Value)
			buf.Write(name)
			buf.WriteByte(':')
			if err := c.grow(compactLen(name)+sep, p); err != nil {
				return err
			}
			if err := c.writeJSON(v, p, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return c.grow(1, path)
	case yaml.SequenceNode:
		buf.WriteByte('[')
		if err := c.grow(1, path); err != nil {
			return err
		}
		for i, v := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
				if err := c.grow(1, path); err != nil {
					return err
				}
			}
			if err := c.writeJSON(v, &where{up: path, index: i}, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return c.grow(1, path)
	case yaml.ScalarNode:
		start := buf.Len()
		if err := writeScalar(buf, n, path, c.untagged[position{n.Line, n.Column}]); err != nil {
			return err
		}
		return c.grow(compactLen(buf.Bytes()[start:]), path)
	default:
		return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: unsupported YAML node", n.Line)}
	}
}

// writeScalar writes a YAML scalar as the JSON value of its resolved tag:
// YAML 1.2's core schema, as go.yaml.in/yaml/v3 resolves it (so `yes` is a
// string, not a boolean, and `"100"` is a string, not a count).
//
// nonSpecific says that the scalar carries the non-specific tag "!", which
// makes it a string in YAML 1.2 (§6.9.1, §3.3.2): `! 5` is "5", not 5.
func writeScalar(buf *bytes.Buffer, n *yaml.Node, path fmt.Stringer, nonSpecific bool) error {
	tag := n.ShortTag()
	switch {
	case nonSpecific:
		tag = "!!str"
	case n.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		tag = coreTag(n.Value) // a plain scalar resolves as YAML 1.2's core schema says
	}
	switch tag {
	case "!!null":
		if !coreNull.MatchString(n.Value) { // a tagged !!null is still one of the core schema's spellings (D-48)
			return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: %q is not a null (~, null or nothing)", n.Line, n.Value)}
		}
		buf.WriteString("null")
	case "!!bool":
		if !coreBool.MatchString(n.Value) { // a tagged !!bool is still one of the core schema's six spellings
			return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: %q is not a boolean (true or false)", n.Line, n.Value)}
		}
		buf.WriteString(strconv.FormatBool(n.Value[0] == 't' || n.Value[0] == 'T'))
	case "!!int":
		return writeInt(buf, n, path)
	case "!!float":
		f, err := strconv.ParseFloat(strings.NewReplacer(".inf", "Inf", ".Inf", "Inf", ".INF", "Inf", ".nan", "NaN", ".NaN", "NaN", ".NAN", "NaN").Replace(n.Value), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: %q is not a number", n.Line, n.Value)}
		}
		return writeFloat(buf, f, n, path)
	default: // strings, and explicitly tagged values (!!str, !!binary, custom tags) as their text
		s, _ := json.Marshal(n.Value)
		buf.Write(s)
	}
	return nil
}

// The plain scalars YAML 1.2's core schema resolves to other than strings
// (https://yaml.org/spec/1.2.2/#1032-tag-resolution). YAML 1.1's readings
// — yes/no/on/off, 1_000, 017 as octal, 0b101, sexagesimal 1:30 — are
// strings here, whatever the parser's own resolution (CONF-6).
var (
	coreNull  = regexp.MustCompile(`^(~|null|Null|NULL|)$`)
	coreBool  = regexp.MustCompile(`^(true|True|TRUE|false|False|FALSE)$`)
	coreInt   = regexp.MustCompile(`^([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`)
	coreFloat = regexp.MustCompile(`^([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$`)
)

func coreTag(v string) string {
	switch {
	case isDecimal(v): // the common case, and a long one's: no regexp to run
		return "!!int"
	case coreNull.MatchString(v):
		return "!!null"
	case coreBool.MatchString(v):
		return "!!bool"
	case coreInt.MatchString(v):
		return "!!int"
	case coreFloat.MatchString(v):
		return "!!float"
	}
	return "!!str"
}

// isDecimal reports whether v is [-+]?[0-9]+.
func isDecimal(v string) bool {
	if v != "" && (v[0] == '+' || v[0] == '-') {
		v = v[1:]
	}
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// maxRadixDigits bounds an octal or hexadecimal integer: converting one to
// decimal takes time quadratic in its length, and 64 digits are far beyond
// any count a config holds (CFG-3 refuses them anyway).
const maxRadixDigits = 64

// writeInt writes a YAML integer as a JSON number, in time linear in its
// length: a decimal one as its digits (sign and leading zeros dropped), an
// octal or hexadecimal one converted, up to maxRadixDigits digits.
func writeInt(buf *bytes.Buffer, n *yaml.Node, path fmt.Stringer) error {
	v := strings.TrimPrefix(n.Value, "+")
	if base := intBase(v); base != 10 {
		digits := v[2:]
		if len(digits) > maxRadixDigits {
			return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: an integer of more than %d digits in base %d is too large for a config", n.Line, maxRadixDigits, base)}
		}
		i, ok := new(big.Int).SetString(digits, base)
		if !ok {
			return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: %q is not an integer", n.Line, n.Value)}
		}
		buf.WriteString(i.String())
		return nil
	}
	neg := strings.HasPrefix(v, "-")
	digits := strings.TrimLeft(strings.TrimPrefix(v, "-"), "0")
	if !isDecimal(v) {
		return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: %q is not an integer", n.Line, n.Value)}
	}
	if digits == "" {
		digits = "0"
	}
	if neg && digits != "0" {
		buf.WriteByte('-')
	}
	buf.WriteString(digits)
	return nil
}

func intBase(v string) int {
	switch {
	case strings.HasPrefix(v, "0o"):
		return 8
	case strings.HasPrefix(v, "0x"):
		return 16
	}
	return 10
}

// writeFloat writes a finite YAML float as a JSON number. A float of the
// core schema's syntax keeps its decimal text (in JSON's spelling), so that
// a count in it is read exactly, as every count is (CFG-3, package
// exactnum): formatting the float64 would turn 3.0000000000000001 into 3.
func writeFloat(buf *bytes.Buffer, f float64, n *yaml.Node, path fmt.Stringer) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &Error{Path: path.String(), Reason: fmt.Sprintf("line %d: %s is not a number a config can hold", n.Line, strings.TrimSpace(n.Value))}
	}
	if v := strings.TrimSpace(n.Value); coreFloat.MatchString(v) {
		buf.WriteString(jsonNumber(v))
		return nil
	}
	buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	return nil
}

// jsonNumber spells a finite float of the core schema's syntax
// ([-+]?(.d+|d+(.d*)?)([eE][-+]?d+)?) as a JSON number of the same value:
// no plus sign, no leading zeros, a digit on both sides of the point.
func jsonNumber(v string) string {
	var b strings.Builder
	if strings.HasPrefix(v, "-") {
		b.WriteByte('-')
	}
	v = strings.TrimLeft(v, "+-")
	mant, exp := v, ""
	if i := strings.IndexAny(v, "eE"); i >= 0 {
		mant, exp = v[:i], v[i:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	if intPart = strings.TrimLeft(intPart, "0"); intPart == "" {
		intPart = "0"
	}
	b.WriteString(intPart)
	if frac != "" {
		b.WriteString("." + frac)
	}
	b.WriteString(exp)
	return b.String()
}
