package main

// The compatibility page of `conform doc -compat DIR`: what real trimming
// libraries promise and where they keep it, rendered from the JSON reports
// their adapters wrote (compat/*/report.json; SPEC §8d, D-60).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// compatReport is what the page reads of one JSON report.
type compatReport struct {
	Implementation *struct {
		Name     string            `json:"name"`
		Version  string            `json:"version"`
		Trimmers []json.RawMessage `json:"trimmers"`
	} `json:"implementation"`
	Status string `json:"status"`
	Cases  []struct {
		ID         string `json:"id"`
		Capability string `json:"capability"`
		Outcome    string `json:"outcome"`
		Verdict    string `json:"verdict"`
		Detail     string `json:"detail"`
		Baseline   *struct {
			Reason string `json:"reason"`
			Issue  string `json:"issue"`
		} `json:"baseline"`
	} `json:"cases"`
}

// compatPage renders the page from every DIR/*/report.json, one section
// per library: its version, its declaration, a verdict per guarantee and
// each finding with the minimal input its baseline entry gives.
func compatPage(dir string) ([]byte, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*", "report.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no report.json under %s/*/: run the compatibility adapters first (go test ./compat)", dir)
	}
	sort.Strings(paths)
	var b bytes.Buffer
	b.WriteString("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Trimmer compatibility</title>" +
		"<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}td,th{border:1px solid #ccc;padding:.3rem .5rem;vertical-align:top}" +
		"table{border-collapse:collapse}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}.pass{color:#060}.fail{color:#a00}</style></head><body>\n")
	b.WriteString("<h1>Trimmer compatibility</h1>\n<p>Real chat-history trimmers, each run unchanged behind an adapter that declares what its own documentation promises " +
		"(the second trimmer declaration, SPEC §8d), and checked by conform on those promises alone. A guarantee is <em>kept</em> when every case passes, " +
		"<em>broken</em> when a case fails; every failure is a finding of the baseline, with the smallest input that shows it.</p>\n")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var r compatReport
		if err := json.Unmarshal(data, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if r.Implementation == nil {
			return nil, fmt.Errorf("%s: the adapter never completed its handshake", p)
		}
		fmt.Fprintf(&b, "<h2 id=\"%s\">%s</h2>\n<p>%s — run status <strong>%s</strong> (adapter: <code>%s</code>)</p>\n",
			html.EscapeString(r.Implementation.Name), html.EscapeString(r.Implementation.Name), html.EscapeString(r.Implementation.Version),
			html.EscapeString(r.Status), html.EscapeString(filepath.Base(filepath.Dir(p))))
		b.WriteString("<h3>Declaration</h3>\n")
		for _, t := range r.Implementation.Trimmers {
			var pretty bytes.Buffer
			_ = json.Indent(&pretty, t, "", "  ")
			fmt.Fprintf(&b, "<pre>%s</pre>\n", html.EscapeString(pretty.String()))
		}
		verdicts := map[string][]string{}
		var guarantees []string
		for _, c := range r.Cases {
			g, ok := strings.CutPrefix(c.Capability, "trimmer/")
			if !ok || c.Outcome == "not_applicable" {
				continue
			}
			if !slices.Contains(guarantees, g) {
				guarantees = append(guarantees, g)
			}
			verdicts[g] = append(verdicts[g], c.Outcome)
		}
		sort.Strings(guarantees)
		b.WriteString("<h3>Verdict per guarantee</h3>\n<p>Guarantees it does not claim are not checked and not listed.</p>\n<table><tr><th>guarantee</th><th>verdict</th><th>cases</th></tr>\n")
		for _, g := range guarantees {
			kept := !slices.ContainsFunc(verdicts[g], func(v string) bool { return v != "passed" })
			word, class := "kept", "pass"
			if !kept {
				word, class = "broken", "fail"
			}
			fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td class=\"%s\">%s</td><td>%d</td></tr>\n", html.EscapeString(g), class, word, len(verdicts[g]))
		}
		b.WriteString("</table>\n<h3>Findings</h3>\n")
		n := 0
		for _, c := range r.Cases {
			if c.Baseline == nil {
				continue
			}
			if n == 0 {
				b.WriteString("<ul>\n")
			}
			n++
			fmt.Fprintf(&b, "<li><code>%s</code>: %s", html.EscapeString(c.ID), html.EscapeString(c.Baseline.Reason))
			if c.Baseline.Issue != "" {
				fmt.Fprintf(&b, " (upstream: %s)", html.EscapeString(c.Baseline.Issue))
			}
			b.WriteString("</li>\n")
		}
		if n == 0 {
			b.WriteString("<p>None: every declared promise is kept.</p>\n")
		} else {
			b.WriteString("</ul>\n")
		}
	}
	b.WriteString("</body></html>\n")
	return b.Bytes(), nil
}
