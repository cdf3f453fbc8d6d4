package hostile_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// atOnce bounds a refusal that must come from the parser, not the
// watchdog: the process starts, reads a few KB and says no.
const atOnce = 5 * time.Second

// fanOut is an operator.yaml whose plan repeats a phase n times, the
// phase a step n times and the step a task n times, through aliases:
// n^3 task references from a few KB. Each level is decoded by an
// UnmarshalYAML method with a decoder of its own, so go-yaml's alias
// ratio check never trips; before the check of expanded values it ran
// into the watchdog (n = 300: 27 million references).
func fanOut(n int) string {
	list := func(item string) string { return strings.TrimSuffix(strings.Repeat(item+", ", n), ", ") }
	return "apiVersion: kudo.dev/v1beta1\nname: hostile\noperatorVersion: 0.1.0\n" +
		"tasks:\n  - name: app\n    kind: Apply\n    spec:\n      resources: [cm.yaml]\n" +
		"x: &t [" + list("app") + "]\n" +
		"y: &st {name: s, tasks: *t}\n" +
		"z: &sts [" + list("*st") + "]\n" +
		"w: &ph {name: p, strategy: serial, steps: *sts}\n" +
		"plans:\n  deploy:\n    strategy: serial\n    phases: [" + list("*ph") + "]\n"
}

// laughs is a billion laughs: levels anchors of ten aliases of the one
// before, indented by pad; merge writes each level as ten keys merging
// the level before (<<) instead of a flow list.
func laughs(levels int, pad string, merge bool) string {
	var b strings.Builder
	b.WriteString(pad + "l0: &l0 {a: x, b: x, c: x, d: x, e: x, f: x, g: x, h: x, i: x, j: x}\n")
	for i := 1; i < levels; i++ {
		if !merge {
			fmt.Fprintf(&b, "%sl%d: &l%d [%s]\n", pad, i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
			continue
		}
		fmt.Fprintf(&b, "%sl%d: &l%d\n", pad, i, i)
		for k := range 10 {
			fmt.Fprintf(&b, "%s  k%d: {<<: *l%d}\n", pad, k, i-1)
		}
	}
	return b.String()
}

// aliasRefused is the message of a refused fan-out: the file, the line
// and column of the alias, the limit and how to raise it.
func aliasRefused(file string) string {
	return regexp.QuoteMeta(file) + `:\d+:\d+: alias \*\w+ \(aliases expanded\): YAML values exceeds the limit of 1000000 values \(raise it with --max-yaml-values or KUDO_RENDER_MAX_YAML_VALUES\)`
}

func pkgCase(reason, stderr string, files map[string]string) hostileCase {
	return hostileCase{
		class: "parsing", reason: reason, stderr: stderr, within: atOnce,
		setup: func(t *testing.T, dir string) []string {
			p := pkg(t, dir, map[string]string{"cm.yaml": cm}, files)
			return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
		},
	}
}

// TestParsing: every YAML entry refuses alias fan-out at once, at the
// alias, naming the limit; places bad characters at file:line:column;
// and counts lines as go-yaml does, whatever the line breaks.
func TestParsing(t *testing.T) {
	framework := "name: hostile\nversion: 0.1.0\ntasks:\n  app:\n    resources: [cm.yaml]\nplans:\n  deploy:\n    steps:\n      - name: app\n        tasks: [app]\n"
	runCases(t, map[string]hostileCase{
		"OperatorFanOut": pkgCase("an alias fan-out across plans, phases and steps in operator.yaml (27 million task references)",
			`operator.yaml:16:\d+: alias \*ph \(aliases expanded\): YAML values exceeds the limit of 1000000 values \(raise it with --max-yaml-values`,
			map[string]string{"operator.yaml": fanOut(300)}),
		"OperatorLaughs": pkgCase("a billion laughs in an unknown field of operator.yaml",
			aliasRefused("operator.yaml"), map[string]string{"operator.yaml": "apiVersion: kudo.dev/v1beta1\nname: hostile\noperatorVersion: 0.1.0\n" + laughs(10, "", false)}),
		"FrameworkMergeKeys": {
			class: "parsing", reason: "a billion laughs of merge keys (<<) in framework.yaml", stderr: aliasRefused("framework.yaml"), within: atOnce,
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, map[string]string{"fw/framework.yaml": framework + "defaults:\n" + laughs(8, "  ", true), "fw/templates/cm.yaml": cm})
				return []string{"render", filepath.Join(dir, "fw"), "--name", "inst", "--output-dir", "{out}"}
			},
		},
		"ParamsFlowAliases": pkgCase("a billion laughs of flow lists in a parameter default",
			aliasRefused("params.yaml"), map[string]string{"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: X\n    type: map\n    default:\n" + laughs(10, "      ", false)}),
		"ConfigLaughs": {
			class: "parsing", reason: "a billion laughs in the Argo CD plugin's kudo-render.yaml", stderr: aliasRefused("kudo-render.yaml"), within: atOnce,
			setup: func(t *testing.T, dir string) []string {
				pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
				write(t, dir, map[string]string{"kudo-render.yaml": "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {}\nspec:\n  framework: {path: pkg}\n  parameters:\n" + laughs(10, "    ", false)})
				return []string{"cmp", "generate"}
			},
			env: []string{"ARGOCD_APP_NAME=x", "ARGOCD_APP_NAMESPACE=ns"},
		},
		"ImportLaughs": {
			class: "parsing", reason: "a billion laughs in an imported KUDO export", stderr: `kudo-export.yaml: document 1: line \d+, column \d+: alias \*l\d \(aliases expanded\): YAML values exceeds the limit of 1000000 values`, within: atOnce,
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, map[string]string{"kudo-export.yaml": "apiVersion: v1\nkind: List\nitems: []\nextra:\n" + laughs(10, "  ", false)})
				return []string{"import", "--from", filepath.Join(dir, "kudo-export.yaml"), "--output-dir", "{out}"}
			},
		},
		"TemplateMergeKeys": tplCase("a billion laughs of merge keys in rendered YAML",
			"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"+laughs(8, "", true),
			`templates/cm.yaml:\d+: alias \*l\d \(aliases expanded\): YAML values exceeds the limit of 1000000 values .*\(rendered line \d+, column \d+\)`),
		"OperatorNUL": pkgCase("a NUL byte in operator.yaml is placed at its line and column",
			`operator.yaml:3:21: holds a NUL byte`, map[string]string{"operator.yaml": "apiVersion: kudo.dev/v1beta1\nname: hostile\noperatorVersion: 0.1\x00.0\n"}),
		"ParamsControlAfterCR": pkgCase("a control character in params.yaml after bare CR line breaks is placed at go-yaml's line",
			`params.yaml:4:15: holds the control character U\+001B`, map[string]string{"params.yaml": "apiVersion: kudo.dev/v1beta1\rparameters:\r  - name: X\r    default: \"\x1b[31m\"\n"}),
		"FrameworkInvalidUTF8": {
			class: "parsing", reason: "invalid UTF-8 in framework.yaml is placed at its line and column", stderr: `framework.yaml:2:15: holds invalid UTF-8 \(byte 0xFF\)`, within: atOnce,
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, map[string]string{"fw/framework.yaml": strings.Replace(framework, "0.1.0", "0.1.0\xff", 1), "fw/templates/cm.yaml": cm})
				return []string{"render", filepath.Join(dir, "fw"), "--name", "inst"}
			},
		},
		"ParamsBOMInTheMiddle": pkgCase("a byte order mark in the middle of params.yaml (go-yaml reads it into the key)",
			`params.yaml:2:1: holds a byte order mark \(U\+FEFF\) after the start of the text`, map[string]string{"params.yaml": "apiVersion: kudo.dev/v1beta1\n\ufeffparameters:\n  - name: X\n"}),
		"CRLineDrift": {
			class: "parsing", reason: "a render over 256 KiB (decoded in parts) whose first document ends its lines with bare CRs places a later object's error at go-yaml's line",
			setup: func(t *testing.T, dir string) []string {
				p := pkg(t, dir, map[string]string{"cm.yaml": crRender()}, nil)
				return []string{"render", p, "--name", "inst", "--output-dir", "{out}"}
			},
			stderr: fmt.Sprintf(`templates/cm.yaml:%d: ConfigMap default/Bad_Name: metadata.name: Invalid value`, crRenderBadLine()),
		},
	})
}

// crRender is a template of 4,000 documents (over 256 KiB) whose first
// one ends its lines with bare CRs and whose last has a bad name.
func crRender() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\rkind: ConfigMap\rmetadata:\r  name: first\rdata:\r")
	for i := range 200 {
		fmt.Fprintf(&b, "  k%d: v\r", i)
	}
	b.WriteString("\n")
	for i := range 4000 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\ndata:\n  x: y\n", i)
	}
	b.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: Bad_Name\n")
	return b.String()
}

// crRenderBadLine is the line of "name: Bad_Name" in crRender, every CR
// a line break as in go-yaml (and in editors).
func crRenderBadLine() int {
	text := crRender()
	i := strings.Index(text, "name: Bad_Name")
	return 1 + len(regexp.MustCompile(`\r\n|\r|\n`).FindAllString(text[:i], -1))
}

// TestKRMParsing: the ResourceList on stdin refuses alias fan-out and
// bad characters at the list's line and column.
func TestKRMParsing(t *testing.T) {
	fc := "functionConfig:\n  apiVersion: kudorender.dev/v1alpha1\n  kind: FrameworkRender\n  metadata: {name: inst}\n  spec:\n    framework: {path: pkg}\n"
	for name, tc := range map[string]struct{ reason, items, want string }{
		"MergeKeysInItem": {"a billion laughs of merge keys in one item", "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: x}\n  data:\n" + laughs(8, "    ", true),
			`cannot read items\[0\]: line \d+, column \d+ of the ResourceList: alias \*l\d \(aliases expanded\): YAML values exceeds the limit of 1000000 values`},
		"FlowListDecodedWhole": {"a billion laughs in a flow-style list, decoded whole", "- {apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: {l0: &l0 [x, x, x, x, x, x, x, x, x, x], l1: &l1 [*l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0, *l0], l2: &l2 [*l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1, *l1], l3: &l3 [*l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2, *l2], l4: &l4 [*l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3, *l3], l5: &l5 [*l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4, *l4], l6: [*l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5, *l5]}}\n",
			`cannot read the ResourceList: line 4, column \d+: alias \*l4 \(aliases expanded\)`},
		"ControlCharacter": {"an escape character in an item", "- kind: A\n  data: {x: \"\x1b\"}\n", `line 5, column 14: holds the control character U\+001B`},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			pkg(t, dir, map[string]string{"cm.yaml": cm}, nil)
			in := []byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" + tc.items + fc)
			r := runCase(t, dir, "", nil, nil, in)
			t.Logf("parsing: exit %d, peak RSS %d MiB, %s", r.code, r.rss>>20, r.took.Round(time.Millisecond))
			checkBounds(t, hostileCase{reason: tc.reason, within: atOnce}, r)
			if r.code != 1 {
				t.Errorf("%s: exit %d, want 1: %s", tc.reason, r.code, head(r.stderr))
			}
			if !regexp.MustCompile(tc.want).MatchString(r.stderr + r.stdout) {
				t.Errorf("%s: no %q in stderr/results:\n%s\n%s", tc.reason, tc.want, head(r.stderr), head(r.stdout))
			}
		})
	}
}
