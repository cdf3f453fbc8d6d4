package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/config"
)

// TestExamples renders every examples/*/render.yaml and verifies every
// example bundle: the examples of examples/README.md must keep working.
func TestExamples(t *testing.T) {
	configs, err := filepath.Glob("../examples/*/render.yaml")
	if err != nil || len(configs) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, cfg := range configs {
		dir := filepath.Dir(cfg)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out, _, err := run("render", cfg)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if !strings.Contains(out, "kind: ") {
				t.Errorf("render printed no objects")
			}
			cfg, err := config.LoadFile(cfg)
			if err != nil {
				t.Fatal(err)
			}
			vout, _, err := run("verify", filepath.Join(cfg.Dir, cfg.Spec.Framework.Path))
			if err != nil {
				t.Fatalf("verify: %v", err)
			}
			if !strings.HasSuffix(vout, "is valid\n") {
				t.Errorf("verify output: %q", vout)
			}
		})
	}
}

// TestMySQLExamplePlans renders each plan of the KEP-0009 example.
func TestMySQLExamplePlans(t *testing.T) {
	for _, p := range []string{"deploy", "backup", "restore"} {
		out, _, err := run("render", "../examples/mysql/render.yaml", "--plan", p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !strings.Contains(out, "name: shop-db-"+p+"-job") {
			t.Errorf("%s: no %s job", p, p)
		}
	}
}

// TestCLIErrorsLeaveStdoutEmpty covers the flag paths that do not go
// through a config file.
func TestCLIErrorsLeaveStdoutEmpty(t *testing.T) {
	for _, args := range [][]string{
		{"render", "../examples/toggle"},                                   // folder without --name
		{"render", "../examples/toggle", "--name", "x", "-p", "NOEQUALS"},  // bad -p
		{"render", "../examples/toggle", "--name", "x", "--target", "bad"}, // bad target
		{"render", "does-not-exist.yaml"},
		{"verify", "testdata/golden/err-unknown-field/bundle"},
	} {
		out, _, err := run(args...)
		if err == nil || out != "" {
			t.Errorf("%v: err=%v, stdout=%q; want an error and no stdout", args, err, out)
		}
	}
	out, _, err := run("render", "../examples/toggle", "--name", "x", "-n", "y", "-p", "REPLICAS=4")
	if err != nil || !strings.Contains(out, "replicas: 4") {
		t.Errorf("folder mode with flags: err=%v", err)
	}
}
