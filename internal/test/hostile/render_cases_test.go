package hostile_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tplCase(reason, template, stderr string) hostileCase {
	return hostileCase{
		class: "template functions", reason: reason, stderr: stderr,
		setup: func(t *testing.T, dir string) []string {
			p := pkg(t, dir, map[string]string{"cm.yaml": template}, nil)
			return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
		},
	}
}

// TestTemplateFunctions: functions whose cost grows with an argument are
// bounded before they allocate.
func TestTemplateFunctions(t *testing.T) {
	runCases(t, map[string]hostileCase{
		"Repeat":        tplCase("repeat of 16 GB", `{{ repeat 2000000000 "xxxxxxxx" }}`, `templates/cm.yaml:1: .*--max-template-bytes`),
		"Indent":        tplCase("indent of a 100,000-line string by 100,000", `{{ indent 100000 (repeat 100000 "\n") }}`, `--max-template-bytes`),
		"PrintfWidth":   tplCase("printf with a 1 GB width", `{{ printf "%0999999999d" 1 }}`, `--max-template-bytes`),
		"ReplaceEmpty":  tplCase("replace with an empty old string", `{{ replace "" (repeat 10000 "y") (repeat 100000 "x") }}`, `--max-template-bytes`),
		"UntilOverflow": tplCase("untilStep over the whole int64 range", `{{ untilStep -9223372036854775807 9223372036854775807 1 }}`, `--max-list-items`),
		"SharedPrint":   tplCase("printing 100 references to a 1 MB string", `{{ $s := repeat 1000000 "a" }}{{ $l := list }}{{ range until 100 }}{{ $l = append $l $s }}{{ end }}{{ $l }}`, `--max-template-bytes`),
		"SelfSet":       tplCase("a dict set into itself", `{{ $d := dict }}{{ $_ := set $d "me" $d }}{{ $d }}`, `may not contain itself`),
		"Recursion":     tplCase("a template that calls itself", `{{ define "x" }}{{ template "x" . }}{{ end }}{{ template "x" . }}`, `exceeded maximum template depth`),
		"AppendLoop":    tplCase("appending 100,000 times (quadratic copying)", `{{ $l := list }}{{ range until 100000 }}{{ $l = append $l 1 }}{{ end }}`, `--max-list-items`),
		"NotAllowed":    tplCase("a function not on the allow-list", `{{ env "HOME" }}`, `function "env" not defined`),
	})
}

// TestDecoding: rendered and input YAML are bounded in values and depth.
func TestDecoding(t *testing.T) {
	bomb := "a0: &a0 [z, z, z, z, z, z, z, z, z, z]\n"
	for i := 1; i < 9; i++ {
		bomb += fmt.Sprintf("a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	runCases(t, map[string]hostileCase{
		"RenderedAliasBomb": tplCase("an alias bomb in rendered YAML", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"+bomb, `YAML values exceeds .*--max-yaml-values`),
		"RenderedFlowList":  tplCase("a huge flow list rendered", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: [{{ repeat 2000000 \"a,\" }}a]\n", `--max-yaml-values`),
		"RenderedDepth":     tplCase("deep nesting rendered", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {{ repeat 5000 \"[\" }}{{ repeat 5000 \"]\" }}\n", `--max-yaml-depth`),
		"RenderedNUL":       tplCase("a NUL byte rendered", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {x: \"{{ printf \"%c\" 0 }}\"}\n", `templates/cm.yaml:4: the rendered text holds a NUL byte`),
		"ParamsFlowList": {
			class: "decoding", reason: "params.yaml of 4 MB of one flow list is refused before it is decoded",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, map[string]string{
					"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: X\n    default: [" + strings.Repeat("a,", 2_000_000) + "a]\n",
				})
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `params.yaml: YAML values exceeds`,
		},
		"ParamsAliasBomb": {
			class: "decoding", reason: "an alias bomb in a parameter default",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": cm}, map[string]string{
					"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: X\n    type: map\n    default:\n" + indent(bomb, "      "),
				})
				return []string{"render", p, "--name", "inst"}
			},
			stderr: `params.yaml:\d+:\d+: alias \*a\d \(aliases expanded\): YAML values exceeds the limit of 1000000 values`,
		},
		"ManyDocuments": {
			class: "decoding", reason: "one template rendering 100,000 small documents renders in linear time", succeed: true,
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": "{{ range $i := until 100000 }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{{ $i }}\n{{ end }}\n"}, nil)
				return []string{"render", p, "--name", "inst", "--target", "plain"}
			},
			check: func(t *testing.T, _, stdout string) {
				if n := strings.Count(stdout, "kind: ConfigMap"); n != 100000 {
					t.Errorf("%d ConfigMaps, want 100000", n)
				}
			},
		},
	})
}

func indent(s, pad string) string {
	return pad + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+pad) + "\n"
}

// TestKRMInput: the ResourceList on stdin is bounded.
func TestKRMInput(t *testing.T) {
	fc := "functionConfig:\n  apiVersion: kudorender.dev/v1alpha1\n  kind: FrameworkRender\n  metadata: {name: inst}\n  spec:\n    framework: {path: pkg}\n"
	krm := func(reason, items, stderr string, env ...string) hostileCase {
		return hostileCase{
			class: "KRM function", reason: reason, stderr: stderr, env: env,
			setup: func(t *testing.T, dir string) []string {
				pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				return []string{}
			},
			stdin: func(dir string) ([]byte, error) {
				return []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + items + fc), nil
			},
		}
	}
	cases := map[string]hostileCase{
		"TooManyItems":     krm("300,000 items over the limit of 200,000", strings.Repeat("- kind: A\n", 300_000), `ResourceList items exceeds .*--max-krm-items`),
		"TooManyFlowItems": krm("300,000 flow items: decoded whole, so bounded in values first", strings.Repeat("- {kind: A}\n", 300_000), `YAML values exceeds`),
		"TooLarge":         krm("input over --max-krm-input-bytes", strings.Repeat("- kind: A\n  data: {x: "+strings.Repeat("y", 1000)+"}\n", 2000), `ResourceList size exceeds`, "KUDO_RENDER_MAX_KRM_INPUT_BYTES=1Mi"),
		"FlowItem":         krm("one item of a huge flow list", "- kind: A\n  data: ["+strings.Repeat("a,", 2_000_000)+"a]\n", `YAML values exceeds`),
		"AliasItem":        krm("an alias bomb in an Instance item", "- apiVersion: kudo.dev/v1beta1\n  kind: Instance\n  metadata: {name: x}\n  spec:\n"+indent("x0: &a0 [z, z, z, z, z, z, z, z, z, z]\nx1: &a1 [*a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0, *a0]\nx2: &a2 [*a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1, *a1]\nx3: &a3 [*a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2, *a2]\nx4: &a4 [*a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3, *a3]\nx5: &a5 [*a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4, *a4]\nx6: &a6 [*a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5, *a5]\nx7: [*a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6, *a6]\n", "    "), `YAML values exceeds`),
		"NUL":              krm("a NUL byte", "- kind: A\x00\n", `NUL`),
	}
	// A KRM function reports errors as results in its output: stdout is
	// not empty there, so these cases check the exit status and stderr
	// through runCase directly.
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			in, _ := tc.stdin(dir)
			r := runCase(t, dir, "", nil, tc.env, in)
			t.Logf("%s: exit %d, peak RSS %d MiB, %s", tc.class, r.code, r.rss>>20, r.took)
			checkBounds(t, tc, r)
			if r.code != 1 {
				t.Errorf("%s: exit %d, want 1: %s", tc.reason, r.code, head(r.stderr))
			}
			if !strings.Contains(r.stderr+r.stdout, strings.Split(tc.stderr, " .*")[0]) {
				t.Errorf("%s: no %q in stderr/results:\n%s\n%s", tc.reason, tc.stderr, head(r.stderr), head(r.stdout))
			}
		})
	}
	_ = os.Remove
	_ = filepath.Join
}
