package cmd

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestDashOIsAFormat: -o/--output is the output format on every command
// that has formats (issue 26, item 8), as in kubectl and helm; a folder
// is --output-dir. A command with -o calls it --output and completes its
// values; no --output-dir has a shorthand.
func TestDashOIsAFormat(t *testing.T) {
	var walk func(c *cobra.Command)
	seen := 0
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			switch {
			case f.Shorthand == "o" && f.Name != "output":
				t.Errorf("%s: -o is --%s, want --output (the format)", c.CommandPath(), f.Name)
			case f.Name == "output-dir" && f.Shorthand != "":
				t.Errorf("%s: --output-dir has the shorthand -%s", c.CommandPath(), f.Shorthand)
			case f.Name == "output" && !f.Hidden:
				seen++
				args := append(strings.Fields(strings.TrimPrefix(c.CommandPath(), "kudo-render ")), "--output", "")
				stdout, _, err := run(append([]string{"__complete"}, args...)...)
				if err != nil || !strings.Contains(stdout, f.DefValue+"\n") {
					t.Errorf("%s: completing --output offers %q (%v), want the formats, %q among them", c.CommandPath(), stdout, err, f.DefValue)
				}
			}
		})
	}
	walk(New(strings.NewReader(""), io.Discard, io.Discard))
	if seen < 4 { // render, diff, graph, adopt check
		t.Errorf("%d commands with a format, want at least 4", seen)
	}
}

// TestOutputFolderNeedsOutputDir: -o with a folder, as render and import
// took it before --output-dir, fails with exit 1, nothing on stdout and a
// message naming --output-dir; nothing is written.
func TestOutputFolderNeedsOutputDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cases := [][]string{
		{"render", "../examples/toggle/render.yaml", "-o", dir},
		{"render", "../examples/toggle/render.yaml", "--output=" + dir},
		{"import", "--from", "../examples/migrate/kudo-export.yaml", "-o", dir},
		{"render", "../examples/toggle/render.yaml", "-o", "json", "--output-dir", dir},
	}
	for _, args := range cases {
		stdout, _, err := run(args...)
		if err == nil || Exit(io.Discard, err) != 1 || !strings.Contains(err.Error(), "--output-dir") {
			t.Errorf("%q: error %v, want exit 1 naming --output-dir", args, err)
		}
		if stdout != "" {
			t.Errorf("%q: stdout %q, want nothing", args, stdout)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%q: %s was written", args, dir)
		}
	}
	if _, _, err := run("render", "../examples/toggle/render.yaml", "-o", dir); err == nil || !strings.Contains(err.Error(), "use --output-dir "+dir) {
		t.Errorf("render -o DIR: %v, want it to say: use --output-dir %s", err, dir)
	}
}

// TestRenderJSON: render -o json prints the objects of the YAML stream,
// in its order, as one v1 List.
func TestRenderJSON(t *testing.T) {
	const cfg = "../examples/dependencies/render.yaml"
	yamlOut, _, err := run("render", cfg)
	if err != nil {
		t.Fatal(err)
	}
	jsonOut, _, err := run("render", cfg, "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		APIVersion, Kind string
		Items            []struct {
			Kind     string
			Metadata struct{ Name string }
		}
	}
	if err := json.Unmarshal([]byte(jsonOut), &list); err != nil {
		t.Fatalf("-o json: %v\n%s", err, jsonOut)
	}
	if list.APIVersion != "v1" || list.Kind != "List" {
		t.Errorf("-o json is a %s %s, want a v1 List", list.APIVersion, list.Kind)
	}
	var fromJSON, fromYAML []string
	for _, it := range list.Items {
		fromJSON = append(fromJSON, it.Kind+"/"+it.Metadata.Name)
	}
	for _, doc := range strings.Split(yamlOut, "\n---\n") {
		kind, name := "", ""
		for _, line := range strings.Split(doc, "\n") {
			if v, ok := strings.CutPrefix(line, "kind: "); ok {
				kind = v
			}
			if v, ok := strings.CutPrefix(line, "  name: "); ok && name == "" {
				name = v
			}
		}
		fromYAML = append(fromYAML, kind+"/"+name)
	}
	if len(fromJSON) == 0 || !slices.Equal(fromJSON, fromYAML) {
		t.Errorf("-o json lists %q, the YAML stream %q", fromJSON, fromYAML)
	}
	again, _, _ := run("render", cfg, "-o", "json")
	if again != jsonOut {
		t.Error("-o json differs between two runs")
	}
}

// TestGraphFormatFlag: graph's format is -o/--output; --format still
// works, with a warning on stderr (deprecated), never on stdout.
func TestGraphFormatFlag(t *testing.T) {
	for _, args := range [][]string{{"-o", "dot"}, {"--output", "dot"}, {"--format", "dot"}} {
		stdout, stderr, err := run(append([]string{"graph", "../examples/toggle/render.yaml"}, args...)...)
		if err != nil || !strings.HasPrefix(stdout, "digraph") {
			t.Errorf("graph %q: %v, stdout %.40q, want DOT", args, err, stdout)
		}
		if deprecated := strings.Contains(stderr, "--format is deprecated"); deprecated != (args[0] == "--format") {
			t.Errorf("graph %q: stderr %q", args, stderr)
		}
	}
}
