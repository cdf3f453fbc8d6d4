package doccmds

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestParseMarkdown: what the test reads of a Markdown file: which lines
// are commands, their exit status and what keeps them from running.
func TestParseMarkdown(t *testing.T) {
	const doc = "# doc\n" +
		"```sh\n" +
		"make demo   # builds\n" +
		"kudo-render diff a.yaml b.yaml   # exit 1: changes\n" +
		"kubectl get pods -o yaml > x.yaml   # needs a cluster\n" +
		"kudo-render graph x.yaml -o dot | dot -Tsvg > x.svg   # needs dot (Graphviz)\n" +
		"flux push artifact oci://r/x \\\n  --path=out\n" +
		"echo '# not a comment'\n" +
		"```\n" +
		"<!-- doc-test: skip `make test`: runs this suite -->\n" +
		"<!-- doc-test: needs kpt -->\n" +
		"  ```bash\n" +
		"  make test   # everything\n" +
		"  kpt fn render\n" +
		"  ```\n" +
		"<!-- doc-test: file render.yaml -->\n" +
		"```yaml\nkind: FrameworkRender\n```\n" +
		"```text\n$ kudo-render render render.yaml\nerror: no\n```\n" +
		"```\nkudo-render verify .\n```\n" +
		"<!-- doc-test: skip `make nothing`: x -->\n" +
		"<!-- doc-test: frobnicate -->\n" +
		"```console\n$ make build\nok\n```\n"
	blocks, problems := parseMarkdown("doc.md", doc)
	var got []string
	for _, b := range blocks {
		if b.file != "" {
			got = append(got, fmt.Sprintf("%s: file %s %q", b.where, b.file, b.text))
		}
		for _, c := range b.commands {
			got = append(got, fmt.Sprintf("%s: %q exit=%d skip=%q needs=%q", c.where, bare(c.text), c.exit, c.skip, c.needs))
		}
	}
	want := []string{
		`doc.md:3: "make demo" exit=0 skip="" needs=[]`,
		`doc.md:4: "kudo-render diff a.yaml b.yaml" exit=1 skip="" needs=[]`,
		`doc.md:5: "kubectl get pods -o yaml > x.yaml" exit=0 skip="needs a cluster" needs=[]`,
		`doc.md:6: "kudo-render graph x.yaml -o dot | dot -Tsvg > x.svg" exit=0 skip="" needs=["dot"]`,
		`doc.md:7: "flux push artifact oci://r/x \\ --path=out" exit=0 skip="" needs=[]`,
		`doc.md:9: "echo '# not a comment'" exit=0 skip="" needs=[]`,
		`doc.md:14: "make test" exit=0 skip="runs this suite" needs=["kpt"]`,
		`doc.md:15: "kpt fn render" exit=0 skip="" needs=["kpt"]`,
		`doc.md:18: file render.yaml "kind: FrameworkRender\n"`,
		`doc.md:22: "kudo-render render render.yaml" exit=0 skip="" needs=[]`,
		`doc.md:31: "make build" exit=0 skip="" needs=[]`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantProblems := []string{
		"doc.md:25: a block of commands that is not labelled sh (or text, if it is output)",
		`doc.md:30: unknown doc-test directive "frobnicate"`,
		"doc.md:30: doc-test: skip `make nothing`: no command of the block is that",
	}
	if !slices.Equal(problems, wantProblems) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
}
