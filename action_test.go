package convspec

import (
	"bufio"
	"encoding/json"
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
	// artifact is the name the upload step would upload under, and
	// uploaded its files.
	artifact string
	uploaded []string
	summary  string
	// logs holds each step's output, by step ID.
	logs map[string]string
	// cacheHit reports whether the cache step restored a saved entry.
	cacheHit bool
}

// runner is what GitHub's runner provides the action's steps: the
// environment of the job, and an Actions cache (key → saved directory)
// that outlives one run, as it outlives one workflow run.
type runner struct {
	actionPath string
	job        string
	cache      map[string]string
	store      string // where the cache's entries are saved
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

// condition evaluates a step's if: always() && X, X != ”, X == ”, X == 'literal'.
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
	if lhs, lit, ok := strings.Cut(c, "=="); ok && strings.HasPrefix(strings.TrimSpace(lit), "'") && strings.HasSuffix(strings.TrimSpace(lit), "'") {
		return r.eval(lhs) == strings.Trim(strings.TrimSpace(lit), "'")
	}
	r.t.Fatalf("action.yml: cannot evaluate the condition %q", c)
	return false
}

// runAction runs action.yml's steps as GitHub's runner would, in
// workspace: the shell steps with bash, the step outputs passed on. The
// steps that use other actions are stood in for: actions/cache by rn's
// cache (restored before, saved after the run), upload-artifact by
// recording its name and files. Any other action fails the test: the
// action must not change the caller's toolchain (no setup-go).
func runAction(t *testing.T, rn *runner, workspace string, inputs map[string]string) *actionRun {
	t.Helper()
	data, err := os.ReadFile("action.yml")
	require.NoError(t, err)
	var a action
	require.NoError(t, yaml.Unmarshal(data, &a), "action.yml")
	require.Equal(t, "composite", a.Runs.Using, "what action.yml runs using")
	r := &actionRun{t: t, inputs: map[string]string{}, outputs: map[string]map[string]string{}, logs: map[string]string{}}
	for name, in := range a.Inputs {
		r.inputs[name] = in.Default
	}
	for name, v := range inputs {
		require.Contains(t, a.Inputs, name, "the inputs of action.yml")
		r.inputs[name] = v
	}
	tmp := t.TempDir()
	summary := filepath.Join(tmp, "step-summary.md")
	// A fresh runner: its temporary directory starts empty, so only the
	// cache can hold a conform built by an earlier run.
	runnerTemp := filepath.Join(tmp, "runner-temp")
	require.NoError(t, os.MkdirAll(runnerTemp, 0o755))
	var saves []func()
	for i, st := range a.Runs.Steps {
		if !r.condition(st.If) {
			continue
		}
		switch {
		case strings.HasPrefix(st.Uses, "actions/cache@"):
			key, path := r.expand(st.With["key"]), r.expand(st.With["path"])
			require.NotEmpty(t, key, "the cache key")
			if saved, ok := rn.cache[key]; ok {
				r.cacheHit = true
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				out, err := exec.Command("cp", "-R", saved, path).CombinedOutput()
				require.NoError(t, err, "restoring the cache: %s", out)
			} else {
				saves = append(saves, func() {
					saved, err := os.MkdirTemp(rn.store, "entry")
					require.NoError(t, err)
					saved = filepath.Join(saved, "saved")
					if out, err := exec.Command("cp", "-R", path, saved).CombinedOutput(); err == nil {
						rn.cache[key] = saved
					} else {
						t.Logf("nothing to save in the cache: %s", out)
					}
				})
			}
			continue
		case strings.HasPrefix(st.Uses, "actions/upload-artifact@"):
			r.artifact = r.expand(st.With["name"])
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
		cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary,
			"GITHUB_ACTION_PATH="+rn.actionPath, "GITHUB_JOB="+rn.job, "RUNNER_TEMP="+runnerTemp, "RUNNER_OS=Linux", "RUNNER_ARCH=X64")
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+r.expand(v))
		}
		out, err := cmd.CombinedOutput()
		name := st.Name
		if name == "" {
			name = st.ID
		}
		t.Logf("step %q:\n%s", name, out)
		r.logs[st.ID] = string(out)
		r.outputs[st.ID] = readOutputs(t, output)
		if err != nil && r.failed == "" {
			r.failed = name
		}
	}
	if b, err := os.ReadFile(summary); err == nil {
		r.summary = string(b)
	}
	for _, save := range saves {
		save()
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
// implementation: conform built from the action's own source (the pin),
// cached, the reports written, the verdict, counts and report paths given
// as outputs, the exit status passed on, a baseline honoured, and an
// artifact name of its own for every entry of a matrix.
func TestAction(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the action builds conform")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	checkout, err := filepath.Abs(".")
	require.NoError(t, err)
	rn := &runner{actionPath: checkout, job: "convspec", cache: map[string]string{}, store: t.TempDir()}
	// The fake implementation is conform's own reference server with a
	// bug: it rounds the token estimate down.
	const impl = `"$CONFORM" serve -mutant estimate-floor`
	flags := `-run ^EST-1/5-characters-estimate-2-tokens$ -checks 5`
	cases := []struct {
		name        string
		baseline    string
		wantExit    string
		wantVerdict string
		wantCounts  string
		wantFail    bool
	}{
		// The case and lifecycle/shutdown, which passes.
		{name: "failing", wantExit: "1", wantVerdict: "FAIL", wantFail: true,
			wantCounts: `{"total":2,"passed":1,"failed":1,"expected_failure":0,"failing":1}`},
		{name: "baseline", baseline: `{"version": 1, "implementation": "x", "entries": [{"id": "EST-1/5-characters-estimate-2-tokens", "reason": "rounds down until v2"}]}`,
			wantExit: "0", wantVerdict: "PASS",
			wantCounts: `{"total":2,"passed":1,"failed":1,"expected_failure":1,"failing":0}`},
	}
	artifacts := map[string]string{}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			in := map[string]string{"command": impl, "flags": flags}
			if c.baseline != "" {
				require.NoError(t, os.WriteFile(filepath.Join(ws, "known.json"), []byte(c.baseline), 0o644))
				in["baseline"] = "known.json"
			}
			r := runAction(t, rn, ws, in)
			// Pinning: the default builds the action's own source, once;
			// the second run takes it from the cache.
			if i == 0 {
				assert.False(t, r.cacheHit, "the first run found conform in the cache")
				assert.Contains(t, r.logs["build"], "building conform from "+checkout)
			} else {
				assert.True(t, r.cacheHit, "the second run did not find conform in the cache")
				assert.Contains(t, r.logs["build"], "conform from the cache")
				assert.NotContains(t, r.logs["build"], "building conform")
			}
			assert.Equal(t, c.wantExit, r.outputs["run"]["exit-code"], "exit-code output")
			assert.Equal(t, c.wantVerdict, r.outputs["run"]["verdict"], "verdict output")
			var want, got map[string]any
			require.NoError(t, json.Unmarshal([]byte(c.wantCounts), &want))
			require.NoError(t, json.Unmarshal([]byte(r.outputs["run"]["counts"]), &got), "the counts output: %q", r.outputs["run"]["counts"])
			for k, v := range want {
				assert.Equal(t, v, got[k], "counts output: %s", k)
			}
			for _, out := range []string{"json", "junit", "html"} {
				path := r.outputs["run"][out]
				_, err := os.Stat(filepath.Join(ws, path))
				assert.NoError(t, err, "the %s output names no report: %q", out, path)
			}
			if c.wantFail {
				assert.Equal(t, "Verdict", r.failed, "the step that failed")
				assert.Equal(t, "1", r.outputs["run"]["failing"], "failing output")
			} else {
				assert.Empty(t, r.failed, "the step that failed")
				assert.Equal(t, "0", r.outputs["run"]["failing"], "failing output")
			}
			assert.Equal(t, []string{"conform-report.html", "conform-junit.xml", "conform-report.json"}, r.uploaded, "the artifact's files")
			assert.Regexp(t, `^conform-report-convspec-Linux-X64-\d+$`, r.artifact)
			artifacts[c.name] = r.artifact
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
	// The two runs are two entries of one job's matrix (another baseline):
	// their artifacts must not collide.
	assert.NotEqual(t, artifacts["failing"], artifacts["baseline"], "two matrix entries upload under one artifact name")

	t.Run("toolchain", func(t *testing.T) {
		data, err := os.ReadFile("action.yml")
		require.NoError(t, err)
		var a action
		require.NoError(t, yaml.Unmarshal(data, &a))
		for _, st := range a.Runs.Steps {
			assert.NotContains(t, st.Uses, "setup-go", "a step sets up Go, which changes the caller's Go for later steps")
			assert.NotContains(t, st.Run, "GITHUB_PATH", "a step changes PATH for later steps")
			assert.NotContains(t, st.Run, "GITHUB_ENV", "a step changes the environment of later steps")
		}
		assert.Empty(t, a.Inputs["version"].Default, "the default conform must be the action's own (its ref pins the suite)")
		assert.NotContains(t, string(data), "@latest", "the action must never install whatever conform is newest")
	})
}
