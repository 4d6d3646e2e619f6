package convspec

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// action is the part of action.yml the test reads.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Name  string            `yaml:"name"`
			If    string            `yaml:"if"`
			Uses  string            `yaml:"uses"`
			Shell string            `yaml:"shell"`
			Env   map[string]string `yaml:"env"`
			Run   string            `yaml:"run"`
			With  map[string]string `yaml:"with"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// actionRun is one local run of the composite action: its inputs, its
// steps' outputs, and what each step did.
type actionRun struct {
	t       *testing.T
	inputs  map[string]string
	outputs map[string]map[string]string
	// failed is the name of the first step that failed; "" for none.
	failed string
	// uploaded are the files the upload step would upload.
	uploaded []string
	summary  string
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// eval evaluates the expressions action.yml uses: inputs.NAME,
// steps.ID.outputs.NAME, and in conditions always(), == ” and != ”.
// Anything else fails the test: the local runner must not guess.
func (r *actionRun) eval(e string) string {
	e = strings.TrimSpace(e)
	switch {
	case strings.HasPrefix(e, "inputs."):
		v, ok := r.inputs[strings.TrimPrefix(e, "inputs.")]
		if !ok {
			r.t.Fatalf("action.yml uses undeclared %s", e)
		}
		return v
	case strings.HasPrefix(e, "steps."):
		parts := strings.Split(e, ".")
		if len(parts) != 4 || parts[2] != "outputs" {
			r.t.Fatalf("action.yml: cannot evaluate %q", e)
		}
		return r.outputs[parts[1]][parts[3]]
	}
	r.t.Fatalf("action.yml: cannot evaluate %q", e)
	return ""
}

func (r *actionRun) expand(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string { return r.eval(expr.FindStringSubmatch(m)[1]) })
}

// condition evaluates a step's if: always() && X, X != ”, X == ”.
func (r *actionRun) condition(c string) bool {
	c = strings.TrimSpace(c)
	if c == "" {
		return r.failed == ""
	}
	always := false
	if rest, ok := strings.CutPrefix(c, "always() &&"); ok {
		always, c = true, strings.TrimSpace(rest)
	}
	if !always && r.failed != "" {
		return false
	}
	if lhs, ok := strings.CutSuffix(c, "!= ''"); ok {
		return r.eval(lhs) != ""
	}
	if lhs, ok := strings.CutSuffix(c, "== ''"); ok {
		return r.eval(lhs) == ""
	}
	r.t.Fatalf("action.yml: cannot evaluate the condition %q", c)
	return false
}

// runAction runs action.yml's steps as GitHub's runner would, in
// workspace: the shell steps with bash, the step outputs passed on. The
// steps that use other actions are not run: setup-go (Go is here), and
// upload-artifact, whose files are recorded instead.
func runAction(t *testing.T, workspace string, inputs map[string]string) *actionRun {
	t.Helper()
	data, err := os.ReadFile("action.yml")
	require.NoError(t, err)
	var a action
	require.NoError(t, yaml.Unmarshal(data, &a), "action.yml")
	require.Equal(t, "composite", a.Runs.Using, "what action.yml runs using")
	r := &actionRun{t: t, inputs: map[string]string{}, outputs: map[string]map[string]string{}}
	for name, in := range a.Inputs {
		r.inputs[name] = in.Default
	}
	for name, v := range inputs {
		require.Contains(t, a.Inputs, name, "the inputs of action.yml")
		r.inputs[name] = v
	}
	tmp := t.TempDir()
	summary := filepath.Join(tmp, "step-summary.md")
	gobin := filepath.Join(tmp, "bin")
	for i, st := range a.Runs.Steps {
		if !r.condition(st.If) {
			continue
		}
		switch {
		case strings.HasPrefix(st.Uses, "actions/setup-go@"):
			continue
		case strings.HasPrefix(st.Uses, "actions/upload-artifact@"):
			for _, p := range strings.Split(r.expand(st.With["path"]), "\n") {
				if p = strings.TrimSpace(p); p != "" {
					r.uploaded = append(r.uploaded, p)
				}
			}
			continue
		case st.Uses != "":
			t.Fatalf("action.yml step %d uses %s, which this test cannot stand in for", i, st.Uses)
		case st.Shell != "bash":
			t.Fatalf("action.yml step %d has shell %q, want bash", i, st.Shell)
		}
		script := filepath.Join(tmp, "step.sh")
		require.NoError(t, os.WriteFile(script, []byte(st.Run), 0o644))
		output := filepath.Join(tmp, "output-"+st.ID)
		require.NoError(t, os.WriteFile(output, nil, 0o644))
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script) // as GitHub runs shell: bash
		cmd.Dir = workspace
		cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary, "GOBIN="+gobin, "GOFLAGS=-buildvcs=false")
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+r.expand(v))
		}
		out, err := cmd.CombinedOutput()
		name := st.Name
		if name == "" {
			name = st.ID
		}
		t.Logf("step %q:\n%s", name, out)
		r.outputs[st.ID] = readOutputs(t, output)
		if err != nil && r.failed == "" {
			r.failed = name
		}
	}
	if b, err := os.ReadFile(summary); err == nil {
		r.summary = string(b)
	}
	return r
}

func readOutputs(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[k] = v
		}
	}
	return out
}

// TestAction runs the GitHub Action's steps locally against a faulty
// implementation: conform installed from this checkout, the reports
// written, the exit status passed on, and a baseline honoured.
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the action installs conform with go install")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	checkout, err := filepath.Abs(".")
	require.NoError(t, err)
	// The fake implementation is conform's own reference server with a
	// bug: it rounds the token estimate down.
	const impl = `"$CONFORM" serve -mutant estimate-floor`
	cases := []struct {
		name     string
		baseline string
		wantExit string
		wantFail bool
	}{
		{name: "failing", wantExit: "1", wantFail: true},
		{name: "baseline", baseline: `{"version": 1, "implementation": "x", "entries": [{"id": "EST-1/5-characters-estimate-2-tokens", "reason": "rounds down until v2"}]}`, wantExit: "0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			in := map[string]string{
				"version": checkout, "command": impl, "go-version": "",
				"flags": `-run ^EST-1/5-characters-estimate-2-tokens$ -checks 5`,
			}
			if c.baseline != "" {
				require.NoError(t, os.WriteFile(filepath.Join(ws, "known.json"), []byte(c.baseline), 0o644))
				in["baseline"] = "known.json"
			}
			r := runAction(t, ws, in)
			assert.Equal(t, c.wantExit, r.outputs["run"]["exit-code"], "exit-code output")
			if c.wantFail {
				assert.Equal(t, "Verdict", r.failed, "the step that failed")
			} else {
				assert.Empty(t, r.failed, "the step that failed")
			}
			for _, f := range []string{"conform-report.html", "conform-junit.xml"} {
				_, err := os.Stat(filepath.Join(ws, f))
				assert.NoError(t, err, "the action wrote no %s", f)
			}
			assert.Equal(t, []string{"conform-report.html", "conform-junit.xml"}, r.uploaded, "the artifact's files")
			// The summary spans lines: the message prints it as it is.
			wantSummary := "FAIL: 1 case fails"
			if !c.wantFail {
				wantSummary = "PASS (1 expected failure)"
			}
			if !strings.Contains(r.summary, "convspec conformance: "+wantSummary) {
				t.Errorf("the step summary does not say %q:\n%s", wantSummary, r.summary)
			}
		})
	}
}
