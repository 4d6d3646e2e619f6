package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlToJSON turns a YAML config file into the JSON value it denotes, so that
// both formats are checked by one set of rules (CONF-6). YAML values with no
// JSON counterpart (.inf, .nan, non-string keys) are errors naming the path.
func yamlToJSON(text []byte) (json.RawMessage, error) {
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
	var buf bytes.Buffer
	if err := writeJSON(&buf, &doc, ""); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, n *yaml.Node, path string) error {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return writeJSON(buf, n.Content[0], path)
	case yaml.AliasNode:
		return writeJSON(buf, n.Alias, path)
	case yaml.MappingNode:
		buf.WriteByte('{')
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Tag == "!!merge" {
				return &Error{Path: path, Reason: "merge keys (<<) are not supported in a config file"}
			}
			if k.Kind != yaml.ScalarNode || (k.ShortTag() != "!!str" && k.ShortTag() != "!!int") {
				return &Error{Path: path, Reason: fmt.Sprintf("line %d: a key must be a name", k.Line)}
			}
			p := join(path, k.Value)
			if seen[k.Value] {
				return &Error{Path: p, Reason: fmt.Sprintf("line %d: is given twice", k.Line)}
			}
			seen[k.Value] = true
			if i > 0 {
				buf.WriteByte(',')
			}
			name, _ := json.Marshal(k.Value)
			buf.Write(name)
			buf.WriteByte(':')
			if err := writeJSON(buf, v, p); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, v := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, v, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case yaml.ScalarNode:
		return writeScalar(buf, n, path)
	default:
		return &Error{Path: path, Reason: fmt.Sprintf("line %d: unsupported YAML node", n.Line)}
	}
	return nil
}

// writeScalar writes a YAML scalar as the JSON value of its resolved tag:
// YAML 1.2's core schema, as go.yaml.in/yaml/v3 resolves it (so `yes` is a
// string, not a boolean, and `"100"` is a string, not a count).
func writeScalar(buf *bytes.Buffer, n *yaml.Node, path string) error {
	switch n.ShortTag() {
	case "!!null":
		buf.WriteString("null")
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return &Error{Path: path, Reason: fmt.Sprintf("line %d: %v", n.Line, err)}
		}
		buf.WriteString(strconv.FormatBool(b))
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			// Out of int64 range: as a float, which the count rules reject.
			var f float64
			if err := n.Decode(&f); err != nil {
				return &Error{Path: path, Reason: fmt.Sprintf("line %d: %v", n.Line, err)}
			}
			return writeFloat(buf, f, n, path)
		}
		buf.WriteString(strconv.FormatInt(i, 10))
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return &Error{Path: path, Reason: fmt.Sprintf("line %d: %v", n.Line, err)}
		}
		return writeFloat(buf, f, n, path)
	default: // !!str, !!timestamp, !!binary and custom tags are text
		s, _ := json.Marshal(n.Value)
		buf.Write(s)
	}
	return nil
}

func writeFloat(buf *bytes.Buffer, f float64, n *yaml.Node, path string) error {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return &Error{Path: path, Reason: fmt.Sprintf("line %d: %s is not a number a config can hold", n.Line, strings.TrimSpace(n.Value))}
	}
	buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
	return nil
}
