package differential

// Differential properties of the capabilities config and loop. Config
// files are drawn as trees and written as YAML (block or flow style, keys
// plain, quoted or explicit) or JSON, with values spelled every way the
// YAML 1.2 core schema reads them: null, ~, empty, tags, anchors and
// aliases, merge keys, duplicates, a second document.

import (
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/agentrun"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

var configClauses = clauseTable{
	protocol.MethodConfigResolve: {"": "CONF-1", "result.max_messages_from": "CONF-3", "result.warnings": "CONF-7", "error": "CONF-4", "error.kind": "CONF-6"},
	protocol.MethodLoopRun: {"": "LOOP-1", "result.requests": "LOOP-1", "result.iterations": "LOOP-3", "result.config": "CONF-1",
		"result.summarizer_calls": "SUM-1", "error": "LOOP-6", "error.data": "CONF-4", "error.kind": "CONF-4"},
}

// ynode is a config document's node: a scalar as spelled, or a mapping.
type ynode struct {
	scalar string // YAML spelling
	json   string // JSON spelling ("" when JSON cannot say it)
	kvs    []ykv
	isMap  bool
}

type ykv struct {
	key string
	val ynode
}

// countSpellings are a count's spellings in YAML and in JSON ("" when JSON
// has none): those CFG-3 and CONF-6 accept (null among them), then those
// they refuse.
var (
	countSpellings = [][2]string{{"5", "5"}, {"0", "0"}, {"1", "1"}, {"3", "3"}, {"12", "12"}, {"3.0", "3.0"}, {"3e0", "3e0"},
		{"~", "null"}, {"null", "null"}, {"Null", ""}, {"", ""}, {"!!int 7", ""}, {"0x5", ""}, {"0o7", ""}, {"+3", ""}, {"!!float 4", ""},
		{"-0", "-0"}, {"007", ""}}
	// leadingZeroCounts are counts written with leading zeros, drawn for a
	// third of the counts: YAML 1.2 reads 007, 010, 012 and 08 as decimals
	// (YAML 1.1 read 010 as octal 8 and 08 as a string), -0 and 00 as 0,
	// 0o07 as 7.
	leadingZeroCounts = [][2]string{{"010", ""}, {"012", ""}, {"0100", ""}, {"0010", ""}, {"007", ""}, {"08", ""}, {"-0", "-0"},
		{"0o07", ""}, {"+012", ""}, {"00", ""}}
	badCounts = [][2]string{{"-1", "-1"}, {"2.5", "2.5"}, {`"5"`, `"5"`}, {".inf", ""}, {".nan", ""}, {"yes", `"yes"`}, {"true", "true"},
		{"1_000", ""}, {"9007199254740992", "9007199254740992"}, {"[]", "[]"}, {"{}", "{}"},
		// 00.5 is a float of the core schema, not a count; ! 5 is the
		// string "5" (the non-specific tag); 0o8 is a string
		{"00.5", ""}, {"-01", ""}, {"! 5", ""}, {"0o8", ""}}
	boolSpellings = [][2]string{{"true", "true"}, {"false", "false"}, {"True", ""}, {"FALSE", ""}, {"~", "null"}, {"", ""}, {"!!bool true", ""}}
	badBools      = [][2]string{{"yes", `"yes"`}, {"on", `"on"`}, {`"true"`, `"true"`}, {"1", "1"}}
)

// docGen draws a document with at most one offending value: with two,
// which one data.path names is open (CONF-4 names "the offending member"),
// so such files are left out (spec/golden.md).
type docGen struct {
	t        *rapid.T
	offended bool
}

// value draws a spelling from good, or, while the document has no
// offending value yet, now and then from bad.
func (g *docGen) value(good, bad [][2]string, label string) ynode {
	if !g.offended && rapid.IntRange(0, 3).Draw(g.t, label+" offends") == 0 {
		g.offended = true
		s := rapid.SampledFrom(bad).Draw(g.t, label)
		return ynode{scalar: s[0], json: s[1]}
	}
	s := rapid.SampledFrom(good).Draw(g.t, label)
	return ynode{scalar: s[0], json: s[1]}
}

// count draws a count's spelling, a third of the time one with leading
// zeros.
func (g *docGen) count(label string) ynode {
	if rapid.IntRange(0, 2).Draw(g.t, label+" leading zeros") == 0 {
		return g.value(leadingZeroCounts, badCounts, label)
	}
	return g.value(countSpellings, badCounts, label)
}

func ymap(kvs ...ykv) ynode { return ynode{isMap: true, kvs: kvs} }

// configDoc draws a config file's tree, and whether a value offends.
func configDoc(t *rapid.T) (ynode, bool) {
	g := &docGen{t: t}
	root := ymap()
	if rapid.IntRange(0, 3).Draw(t, "host keys") == 0 {
		root.kvs = append(root.kvs, ykv{"model", ynode{scalar: "gpt-4o", json: `"gpt-4o"`}})
	}
	switch rapid.IntRange(0, 9).Draw(t, "execution") {
	case 0: // no execution
	case 1:
		root.kvs = append(root.kvs, ykv{"execution", g.value([][2]string{{"~", "null"}, {"", ""}}, [][2]string{{"5", "5"}, {"[]", "[]"}}, "execution scalar")})
	default:
		exec := ymap()
		if rapid.IntRange(0, 3).Draw(t, "host member") == 0 {
			exec.kvs = append(exec.kvs, ykv{"max_iterations", ynode{scalar: "-3", json: "-3"}})
		}
		if rapid.Bool().Draw(t, "shorthand") {
			exec.kvs = append(exec.kvs, ykv{"max_conversation_messages", g.count("shorthand value")})
		}
		switch rapid.IntRange(0, 5).Draw(t, "conversation") {
		case 0:
		case 1:
			exec.kvs = append(exec.kvs, ykv{"conversation", g.value([][2]string{{"~", "null"}, {"", ""}, {"{}", "{}"}}, [][2]string{{"5", "5"}, {"[]", "[]"}}, "conversation scalar")})
		default:
			conv := ymap()
			for _, name := range rapid.Permutation([]string{"max_messages", "preserve_first_n", "preserve_last_n", "summarize_on_trim", "preserve_lats_n"}).Draw(t, "members") {
				if rapid.IntRange(0, 2).Draw(t, name+" present") == 0 {
					continue
				}
				if name == "preserve_lats_n" { // CFG-4: an unknown member offends
					if g.offended || rapid.IntRange(0, 5).Draw(t, "typo") > 0 {
						continue
					}
					g.offended = true
				}
				if name == "summarize_on_trim" {
					conv.kvs = append(conv.kvs, ykv{name, g.value(boolSpellings, badBools, name)})
				} else {
					conv.kvs = append(conv.kvs, ykv{name, g.count(name)})
				}
			}
			exec.kvs = append(exec.kvs, ykv{"conversation", conv})
		}
		root.kvs = append(root.kvs, ykv{"execution", exec})
	}
	return root, g.offended
}

// writeYAML writes a tree in block style (flow for some mappings), keys
// plain, quoted or explicit.
func writeYAML(t *rapid.T, n ynode, indent int, b *strings.Builder) {
	pad := strings.Repeat("  ", indent)
	for _, kv := range n.kvs {
		key := kv.key
		switch rapid.IntRange(0, 7).Draw(t, "key form") {
		case 0:
			key = `"` + key + `"`
		case 1:
			key = "'" + key + "'"
		}
		explicit := rapid.IntRange(0, 11).Draw(t, "explicit key") == 0
		if explicit {
			fmt.Fprintf(b, "%s? %s\n%s:", pad, key, pad)
		} else {
			fmt.Fprintf(b, "%s%s:", pad, key)
		}
		switch {
		case kv.val.isMap && len(kv.val.kvs) > 0 && rapid.IntRange(0, 3).Draw(t, "flow") > 0:
			b.WriteString("\n")
			writeYAML(t, kv.val, indent+1, b)
		case kv.val.isMap:
			b.WriteString(" " + flowYAML(kv.val) + "\n")
		case kv.val.scalar == "":
			b.WriteString("\n")
		default:
			b.WriteString(" " + kv.val.scalar + "\n")
		}
	}
}

func flowYAML(n ynode) string {
	var parts []string
	for _, kv := range n.kvs {
		if kv.val.isMap {
			parts = append(parts, kv.key+": "+flowYAML(kv.val))
			continue
		}
		v := kv.val.scalar
		if v == "" {
			v = "null"
		}
		parts = append(parts, kv.key+": "+v)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// writeJSON writes a tree as JSON; false when a value has no JSON spelling.
func writeJSON(n ynode) (string, bool) {
	if !n.isMap {
		return n.json, n.json != ""
	}
	var parts []string
	for _, kv := range n.kvs {
		v, ok := writeJSON(kv.val)
		if !ok {
			return "", false
		}
		parts = append(parts, fmt.Sprintf("%q: %s", kv.key, v))
	}
	return "{" + strings.Join(parts, ", ") + "}", true
}

// configSource draws a whole config file: the tree in YAML or JSON, and
// now and then a shape only text can have (aliases, merge keys,
// duplicates, a second document, a top level that is not a mapping).
func configSource(t *rapid.T) map[string]any {
	doc, offended := configDoc(t)
	if j, ok := writeJSON(doc); ok && rapid.IntRange(0, 3).Draw(t, "json") == 0 {
		if !offended && rapid.IntRange(0, 7).Draw(t, "json duplicate") == 0 {
			j = strings.Replace(j, "{", `{"execution": {}, `, 1)
		}
		return map[string]any{"format": "json", "text": j}
	}
	var b strings.Builder
	if rapid.Bool().Draw(t, "comment") {
		b.WriteString("# agent config\n")
	}
	if rapid.IntRange(0, 5).Draw(t, "document marker") == 0 {
		b.WriteString("---\n")
	}
	writeYAML(t, doc, 0, &b)
	text := b.String()
	shape := rapid.IntRange(0, 11).Draw(t, "text shape")
	if offended && shape == 3 {
		shape = 11 // a second document besides an offending value: which error is reported is open
	}
	switch shape {
	case 0:
		text = "limits: &lim {max_messages: 4, preserve_last_n: 2}\nexecution:\n  conversation: *lim\n"
	case 1:
		text = "n: &n 6\nexecution:\n  max_conversation_messages: *n\n  conversation:\n    max_messages: *n\n"
	case 2:
		text = "base: &b {max_messages: 4}\nexecution:\n  conversation:\n    <<: *b\n    preserve_last_n: 1\n"
	case 3:
		text += "---\nexecution: {}\n"
	case 4:
		text = rapid.SampledFrom([]string{"", "~", "[]", "5", "- a\n", "execution: [1, 2]", "execution:\n  conversation:\n    max_messages: 3\n    max_messages: 4\n", "{", "execution: !!map {conversation: !!map {max_messages: !!int \"8\"}}", "\tx: 1"}).Draw(t, "odd text")
	}
	return map[string]any{"format": rapid.SampledFrom([]string{"yaml", "yaml", "yaml", "yaml", "yaml", "yaml", "yaml", "yaml", "yaml", "YAML", "toml"}).Draw(t, "format"), "text": text}
}

func diffConfigProperties() []prop.Property {
	loopRun := diffProperty("prop/diff-loop-run", protocol.CapLoop,
		"loop.run of any run (both formats, parallel calls, any cap, summarizers that reply, fail or reply blank, config files of every spelling) answers as the reference does: every request, state, metric and event",
		[]string{"LOOP-1", "LOOP-2", "LOOP-3", "LOOP-4", "LOOP-5", "LOOP-6", "LOOP-7"},
		drawLoopRun, nil, configClauses.of)
	loopRun.Examples = loopRunExamples(configClauses.of)
	loopRun.Cost = 3 // a whole loop run, on the implementation and on the reference, in every check
	return []prop.Property{
		diffProperty("prop/diff-config-resolve", protocol.CapConfig,
			"config.resolve of any config file (YAML and JSON; null, ~, empty, tags, aliases, merge keys, duplicates, both key forms; counts spelled every way) answers as the reference does",
			[]string{"CONF-1", "CONF-2", "CONF-3", "CONF-4", "CONF-5", "CONF-6", "CONF-7"},
			func(t *rapid.T, _ []string) []call {
				return []call{{protocol.MethodConfigResolve, map[string]any{"config": configSource(t)}}}
			}, configExamples(), configClauses.of),
		loopRun,
	}
}

func drawLoopRun(t *rapid.T, formats []string) []call {
	c := gen.DrawLoopCase(t)
	if formats != nil {
		c.Plan.Provider = rapid.SampledFrom(formats).Draw(t, "provider")
	}
	initial, iterations, err := agentrun.Build(c.Plan)
	if err != nil {
		t.Fatalf("generator: %v", err)
	}
	if initial == nil {
		initial = []json.RawMessage{}
	}
	var config any = c.Config()
	if rapid.IntRange(0, 4).Draw(t, "config file") == 0 {
		config = configSource(t)
	}
	p := map[string]any{"config": config, "initial": initial, "iterations": iterations}
	if len(c.Summarizers) > 0 {
		p["summarizers"] = c.Summarizers
	}
	return []call{{protocol.MethodLoopRun, p}}
}

func configExamples() map[string][]call {
	ex := map[string][]call{}
	for name, text := range map[string]string{
		"empty": "", "null document": "~", "execution null": "execution: ~", "execution empty": "execution:\n",
		"shorthand": "execution:\n  max_conversation_messages: 7\n", "block": "execution:\n  conversation:\n    max_messages: 7\n",
		"both agree":        "execution:\n  max_conversation_messages: 7\n  conversation: {max_messages: 7}\n",
		"both differ":       "execution:\n  max_conversation_messages: 7\n  conversation: {max_messages: 9}\n",
		"block without cap": "execution:\n  max_conversation_messages: 7\n  conversation: {preserve_last_n: 2}\n",
		"cap at head+tail":  "execution:\n  conversation: {max_messages: 3, preserve_first_n: 1, preserve_last_n: 2}\n",
		"tilde member":      "execution:\n  conversation:\n    max_messages: ~\n", "yes is a string": "execution:\n  conversation:\n    summarize_on_trim: yes\n",
		"30.0": "execution:\n  max_conversation_messages: 30.0\n", "alias": "n: &n 6\nexecution: {max_conversation_messages: *n}\n",
		"merge key": "b: &b {max_messages: 4}\nexecution:\n  conversation:\n    <<: *b\n", "duplicate": "execution: {}\nexecution: {}\n",
		"second document": "execution: {}\n---\nx: 1\n", "tagged": "execution: {max_conversation_messages: !!int 8}\n",
		"explicit key": "? execution\n: conversation: {max_messages: 5}\n", "host keys": "execution:\n  max_iterations: -1\n  tools: [a, b]\nmodel: x\n",
		// CONF-6: the non-specific tag makes a string; a YAML 1.2 directive
		// is read; D-48's keys, tags and aliases
		"non-specific tag": "execution: {max_conversation_messages: ! 5}\n", "yaml 1.2 directive": "%YAML 1.2\n---\nexecution: {max_conversation_messages: 9}\n",
		"keys of every type": "~: a\ntrue: b\n1.5: c\n007: d\nexecution: {max_conversation_messages: 010}\n", "null tag on a host member": "x: !!null x\n",
		"alias in its own node": "a: &a [1, *a]\n", "alias to no anchor": "a: *b\n",
	} {
		ex[name] = []call{{protocol.MethodConfigResolve, map[string]any{"config": map[string]any{"format": "yaml", "text": text}}}}
	}
	// PROTO-2: a config without its text is a missing param, not an empty file
	ex["no text"] = []call{{protocol.MethodConfigResolve, map[string]any{"config": map[string]any{"format": "json"}}}}
	ex["json duplicate"] = []call{{protocol.MethodConfigResolve, map[string]any{"config": map[string]any{"format": "json", "text": `{"execution":{},"execution":{}}`}}}}
	ex["json 3.0"] = []call{{protocol.MethodConfigResolve, map[string]any{"config": map[string]any{"format": "json", "text": `{"execution":{"conversation":{"max_messages":3.0,"preserve_first_n":null}}}`}}}}
	return ex
}

// loopRunExamples are the same runs as loop.run requests, for the
// differential property, in the order of their names. Each run's
// requests are built when its example runs, not when the suite is listed:
// every conform run lists every property, and building these 30 runs was a
// tenth of a one-case run's CPU.
func loopRunExamples(clauseOf func(method, path string) string) []prop.Example {
	byName := map[string]gen.LoopCase{}
	for _, provider := range []string{agentrun.OpenAI, agentrun.Anthropic} {
		for _, c := range gen.LoopEdgeCases(provider) {
			byName[gen.LoopEdgeName(c)] = c
		}
	}
	var out []prop.Example
	for _, name := range sortedKeys(byName) {
		c := byName[name]
		out = append(out, edgeExample(name, func() []call {
			initial, iterations, err := agentrun.Build(c.Plan)
			if err != nil {
				panic(fmt.Sprintf("loop edge %s: %v", name, err))
			}
			if initial == nil {
				initial = []json.RawMessage{}
			}
			p := map[string]any{"config": c.Config(), "initial": initial, "iterations": iterations}
			if len(c.Summarizers) > 0 {
				p["summarizers"] = c.Summarizers
			}
			return []call{{protocol.MethodLoopRun, p}}
		}, clauseOf))
	}
	return out
}
