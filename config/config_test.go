package config_test

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/config"
)

const validConfig = `apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata:
  name: my-zk
  namespace: data
spec:
  framework:
    path: ../operators/zookeeper
  plans: [deploy]
  params:
    NODE_COUNT: 1000000
    RATIO: 1.0
    ENABLED: true
    QUOTED: "007"
    LIST: [a, 1]
    MAP: {k: v}
    NOTHING: null
  target: plain
`

// problem is a ConfigError problem without its message.
type problem struct {
	File  string
	Line  int
	Field string
}

func lineOf(text, needle string) int {
	i := strings.Index(text, needle)
	if i < 0 {
		panic(needle)
	}
	return 1 + strings.Count(text[:i], "\n")
}

func TestParse(t *testing.T) {
	c, err := config.Parse("render.yaml", "/work/configs", []byte(validConfig))
	if err != nil {
		t.Fatalf("Parse(valid): %v", err)
	}
	got := struct {
		Name, Namespace, Path, Target, Dir, File string
		Plans                                    []string
	}{c.Metadata.Name, c.Metadata.Namespace, c.Spec.Framework.Path, c.Spec.Target, c.Dir, c.File, c.Spec.Plans}
	want := struct {
		Name, Namespace, Path, Target, Dir, File string
		Plans                                    []string
	}{"my-zk", "data", "../operators/zookeeper", "plain", "/work/configs", "render.yaml", []string{"deploy"}}
	assert.Check(t, is.DeepEqual(want, got), "Parse(valid)")
}

func TestParseErrors(t *testing.T) {
	type want struct {
		problems []problem
		msgs     []string
	}
	cases := map[string]struct {
		reason string
		yaml   string
		want   want
	}{
		"UnknownField": {
			reason: "An unknown field is an error with its line and its path.",
			yaml:   strings.Replace(validConfig, "  plans: [deploy]\n", "  plan: [deploy]\n", 1),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 9, Field: "spec.plan"}},
				msgs:     []string{`unknown field "plan"; did you mean "plans"?`},
			},
		},
		"UnknownFieldDidYouMean": {
			reason: "spec.param for spec.params gets a did you mean from the fields of spec (issue 26.7).",
			yaml:   strings.Replace(validConfig, "  params:\n", "  param:\n", 1),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 10, Field: "spec.param"}},
				msgs:     []string{`unknown field "param"; did you mean "params"?`},
			},
		},
		"UnknownNestedField": {
			reason: "A typo in a nested mapping names its path.",
			yaml:   strings.Replace(validConfig, "    path: ../operators/zookeeper\n", "    path: ../operators/zookeeper\n    pth: x\n", 1),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 9, Field: "spec.framework.pth"}},
				msgs:     []string{`unknown field "pth"; did you mean "path"?`},
			},
		},
		"MissingName": {
			reason: "metadata.name is the instance name and required; the problem points at metadata.",
			yaml:   strings.Replace(validConfig, "  name: my-zk\n", "", 1),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 3, Field: "metadata.name"}},
				msgs:     []string{"is required"},
			},
		},
		"BadTarget": {
			reason: "An unknown target names the field, its line and the choices.",
			yaml:   strings.Replace(validConfig, "  target: plain\n", "  target: helm\n", 1),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 18, Field: "spec.target"}},
				msgs:     []string{`unknown target "helm"`},
			},
		},
		"BadFluxDuration": {
			reason: "A duration of spec.flux that Flux's API refuses is refused here, naming the field.",
			yaml:   strings.Replace(validConfig, "  target: plain\n", "  target: flux\n  flux: {retryInterval: 1m, timeout: 5 minutes}\n", 1),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 19, Field: "spec.flux.timeout"}},
				msgs:     []string{`"5 minutes" is not a duration as Flux writes them`},
			},
		},
		"WrongAPIVersionAndKind": {
			reason: "apiVersion and kind must match the FrameworkRender API; both are reported at once.",
			yaml:   strings.NewReplacer("kudorender.dev/v1alpha1", "kudo.dev/v1beta1", "kind: FrameworkRender", "kind: Instance").Replace(validConfig),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 1, Field: "apiVersion"}, {File: "render.yaml", Line: 2, Field: "kind"}},
				msgs:     []string{"must be kudorender.dev/v1alpha1", "must be FrameworkRender"},
			},
		},
		"TypeError": {
			reason: "A type error carries its line and field path (`plans: deploy` said only \"expected a list\", issue 26.7).",
			yaml:   strings.Replace(validConfig, "  plans: [deploy]\n", "  plans: deploy\n", 1),
			want: want{
				problems: []problem{{File: "render.yaml", Line: 9, Field: "spec.plans"}},
				msgs:     []string{`expected a list, got str "deploy"`},
			},
		},
		"SyntaxError": {
			reason: "A YAML syntax error carries its line.",
			yaml:   "apiVersion: kudorender.dev/v1alpha1\nkind: \"FrameworkRender\n",
			want: want{
				problems: []problem{{File: "render.yaml", Line: 2}},
				msgs:     []string{"found unexpected end of stream"},
			},
		},
		"Empty": {
			reason: "An empty config is an error.",
			yaml:   "",
			want: want{
				problems: []problem{{File: "render.yaml"}},
				msgs:     []string{"file is empty"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c, err := config.Parse("render.yaml", ".", []byte(tc.yaml))
			if c != nil {
				t.Errorf("\n%s\nParse(...): want no config on error", tc.reason)
			}
			var ce *config.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("\n%s\nParse(...): want *config.ConfigError, got %T %v", tc.reason, err, err)
			}
			var got []problem
			for _, p := range ce.Problems {
				got = append(got, problem{File: p.File, Line: p.Line, Field: p.Field})
			}
			assert.Check(t, is.DeepEqual(tc.want.problems, got), "%s\nParse(...):\n\n%v", tc.reason, err)
			for i, m := range tc.want.msgs {
				if i < len(ce.Problems) && !strings.Contains(ce.Problems[i].Msg, m) {
					t.Errorf("\n%s\nParse(...): problem %d: want message containing %q, got %q", tc.reason, i, m, ce.Problems[i].Msg)
				}
			}
			if ce.File != "render.yaml" || !strings.Contains(err.Error(), "invalid FunctionConfig render.yaml") {
				t.Errorf("\n%s\nParse(...): the error should name the file, got %v", tc.reason, err)
			}
		})
	}
}

func TestValues(t *testing.T) {
	c, err := config.Parse("render.yaml", ".", []byte(validConfig))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Values()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"NODE_COUNT": "1000000", // never 1e+06
		"RATIO":      "1.0",     // keeps its decimals
		"ENABLED":    "true",
		"QUOTED":     "007",
		"LIST":       []any{"a", 1},
		"MAP":        map[string]any{"k": "v"},
		"NOTHING":    nil,
	}
	assert.Check(t, is.DeepEqual(want, got), "Values()")
}

func TestStringNode(t *testing.T) {
	n := config.StringNode("1000000")
	c := &config.Config{}
	c.Spec.Params = map[string]config.Node{"X": n}
	got, err := c.Values()
	if err != nil {
		t.Fatal(err)
	}
	assert.Check(t, is.DeepEqual(map[string]any{"X": "1000000"}, got), "Values() of a StringNode")
}

func TestConfigErrorMessage(t *testing.T) {
	_, err := config.Parse("render.yaml", ".", []byte("apiVersion: x\nkind: y\n"))
	var ce *config.ConfigError
	if !errors.As(err, &ce) || len(ce.Problems) < 2 {
		t.Fatalf("want several problems, got %v", err)
	}
	if !strings.HasPrefix(err.Error(), "invalid FunctionConfig render.yaml: ") || strings.Count(err.Error(), "\n  ") != len(ce.Problems) {
		t.Errorf("Error(): want a count and one problem a line, got\n%s", err)
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add(validConfig)
	f.Add(`# Render the mysql framework's deploy plan for the instance "shop-db".
apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata:
  name: shop-db
  namespace: shop
spec:
  framework:
    path: .
  params:
    storage: 5Gi
`)
	f.Add("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: x}\nspec: {framework: {git: {url: https://example.com/r.git, ref: main, path: zk}}, pipes: {k: v}, serverSideApply: false}\n")
	f.Add("apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: x}\nspec: {framework: {path: a}, params: {A: &a [1, 2], B: *a, C: {<<: {x: 1}}}}\n")
	f.Add("{")
	f.Add("- a\n")
	f.Add("")
	f.Fuzz(func(t *testing.T, data string) {
		c, err := config.Parse("render.yaml", ".", []byte(data))
		if err != nil {
			var ce *config.ConfigError
			if !errors.As(err, &ce) || len(ce.Problems) == 0 {
				t.Fatalf("want *config.ConfigError with problems, got %T %v", err, err)
			}
			for _, p := range ce.Problems {
				if p.Line < 0 || p.File != "render.yaml" {
					t.Fatalf("bad problem %#v", p)
				}
			}
			_ = err.Error()
			return
		}
		if c.APIVersion != config.APIVersion || c.Kind != config.Kind {
			t.Fatalf("accepted %s/%s", c.APIVersion, c.Kind)
		}
		if _, err := c.Values(); err != nil {
			_ = err.Error()
		}
		if err := c.Check(); err != nil {
			t.Fatalf("Check() after a successful Parse: %v", err)
		}
	})
}
