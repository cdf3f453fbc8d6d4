package cmd

import (
	"io"
	"strings"
	"testing"
)

// TestCLIHabits: what users expect of a command line (issue 26, item 8).
func TestCLIHabits(t *testing.T) {
	version, _, err := run("version")
	if err != nil || version == "" {
		t.Fatalf("version: %q, %v", version, err)
	}
	cases := []struct {
		reason  string
		args    []string
		stdout  string // exact, when not ""
		errHas  string // in the error, when not ""
		noError bool
	}{
		{"--version prints what the version command prints", []string{"--version"}, version, "", true},
		{"a typo of a command suggests it", []string{"rendr", "x.yaml"}, "", `unknown command "rendr" for "kudo-render"; did you mean render?`, false},
		{"a typo close to two commands suggests both", []string{"verisn"}, "", "did you mean verify or version?", false},
		{"empty stdin (kudo-render < /dev/null) is an error that says what the function reads, not the help", nil, "", "stdin is empty; without a command kudo-render is a KRM function", false},
		{"a word that is no command says where the list is", []string{"frobnicate"}, "", `unknown command "frobnicate" for "kudo-render" (kudo-render --help lists the commands)`, false},
	}
	for _, c := range cases {
		stdout, _, err := run(c.args...)
		switch {
		case c.noError && err != nil:
			t.Errorf("%s: %v", c.reason, err)
		case !c.noError && (err == nil || !strings.Contains(err.Error(), c.errHas)):
			t.Errorf("%s: error %v, want one with %q", c.reason, err, c.errHas)
		case c.stdout != "" && stdout != c.stdout:
			t.Errorf("%s: stdout %q, want %q", c.reason, stdout, c.stdout)
		case !c.noError && stdout != "":
			t.Errorf("%s: stdout %q on error, want nothing", c.reason, stdout)
		}
	}
}

// TestCompletion: the shell completion offers the values of --target and
// --output, and the plans and parameters of the package named first.
func TestCompletion(t *testing.T) {
	cases := []struct {
		reason string
		args   []string
		want   []string
	}{
		{"--target takes three values", []string{"render", "../examples/toggle", "--target", ""}, []string{"argocd", "plain", "flux"}},
		{"diff's --output is a format", []string{"diff", "a.yaml", "--output", ""}, []string{"text", "markdown", "json"}},
		{"render's -o is a format", []string{"render", "../examples/toggle", "-o", ""}, []string{"yaml", "json"}},
		{"graph's -o is a format", []string{"graph", "../examples/toggle", "-o", ""}, []string{"mermaid", "dot"}},
		{"--plan offers the package's plans", []string{"render", "../examples/dependencies", "--plan", ""}, []string{"deploy"}},
		{"-p offers the package's parameters, ready for a value", []string{"render", "../examples/toggle", "-p", ""}, []string{"REPLICAS=", "METRICS_ENABLED="}},
		{"a FunctionConfig leads to its package", []string{"graph", "../examples/dependencies/render.yaml", "--plan", ""}, []string{"deploy"}},
	}
	for _, c := range cases {
		stdout, _, err := run(append([]string{"__complete"}, c.args...)...)
		if err != nil {
			t.Fatalf("%s: %v", c.reason, err)
		}
		got := strings.Split(strings.TrimSpace(stdout), "\n")
		for _, w := range c.want {
			found := false
			for _, g := range got {
				found = found || strings.SplitN(g, "\t", 2)[0] == w
			}
			if !found {
				t.Errorf("%s: %q not among %q", c.reason, w, got)
			}
		}
	}
}

// TestRenderHelpExamplesRun: every example of `render --help` runs as
// written from the repository's root (paths made relative to cmd/,
// --output-dir into a temporary folder).
func TestRenderHelpExamplesRun(t *testing.T) {
	var example string
	for _, c := range New(strings.NewReader(""), io.Discard, io.Discard).Commands() {
		if c.Name() == "render" {
			example = c.Example
		}
	}
	if example == "" {
		t.Fatal("render has no examples")
	}
	for _, line := range strings.Split(example, "\n") {
		args := strings.Fields(line)
		if len(args) < 2 || args[0] != "kudo-render" {
			t.Fatalf("example %q does not start with kudo-render", line)
		}
		args = args[1:]
		for i, a := range args {
			switch {
			case strings.HasPrefix(a, "examples/"):
				args[i] = "../" + a
			case a == "out/" && i > 0 && args[i-1] == "--output-dir":
				args[i] = t.TempDir()
			}
		}
		if _, stderr, err := run(args...); err != nil {
			t.Errorf("%s: %v\n%s", line, err, stderr)
		}
	}
}
