package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyExample copies an example folder to a temporary one.
func copyExample(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(filepath.Join("../examples", name), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Join("../examples", name), p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestDefinitions: parameters are validated against params.schema.json and
// every violation is reported with its JSON pointer; resources of the
// framework's definitions are validated and rendered one Job each.
func TestDefinitions(t *testing.T) {
	out, _, err := run("render", "../examples/definitions/render.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"name: orders-topic-orders", "--partitions=12", "--config=retention.ms=604800000", "name: orders-topic-audit", "--partitions=3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	_, _, err = run("render", "../examples/definitions/render.yaml", "-p", "defaultPartitions=0", "-p", "bootstrapServers=bad")
	for _, want := range []string{"defaultPartitions: minimum", "bootstrapServers: 'bad' does not match pattern"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
	schema, _, err := run("schema", "--params", "../examples/definitions")
	if err != nil || !strings.Contains(schema, `"maximum": 1000`) {
		t.Errorf("schema --params: %v\n%s", err, schema)
	}
}

// TestSchemaImmutable: the lock records each schema's digest per version;
// a changed schema under the same version fails, a new version passes.
func TestSchemaImmutable(t *testing.T) {
	dir := copyExample(t, "definitions")
	cfg := filepath.Join(dir, "render.yaml")
	if _, _, err := run("lock", cfg); err != nil {
		t.Fatal(err)
	}
	locked := readFile(t, cfg)
	for _, k := range []string{"events/topics/v1: sha256:", "events@1.0.0/params: sha256:"} {
		if !strings.Contains(locked, k) {
			t.Fatalf("lock did not record %q:\n%s", k, locked)
		}
	}
	def := filepath.Join(dir, "definitions", "topic.yaml")
	orig := readFile(t, def)
	os.WriteFile(def, []byte(strings.Replace(orig, "minimum: 1\n    retentionHours", "minimum: 2\n    retentionHours", 1)), 0o644)
	_, _, err := run("render", cfg)
	if err == nil || !strings.Contains(err.Error(), "schema of topics/v1 changed: publish a new version") {
		t.Fatalf("a changed schema under the same version: %v", err)
	}
	// Published as v2 (and the resources moved to it): accepted.
	os.WriteFile(def, []byte(strings.Replace(readFile(t, def), "version: v1", "version: v2", 1)), 0o644)
	os.WriteFile(cfg, []byte(strings.ReplaceAll(locked, "events.kudorender.dev/v1", "events.kudorender.dev/v2")), 0o644)
	if _, _, err := run("render", cfg); err != nil {
		t.Errorf("a new version: %v", err)
	}
	// params.schema.json is locked per framework version too.
	ps := filepath.Join(dir, "params.schema.json")
	os.WriteFile(ps, []byte(strings.Replace(readFile(t, ps), `"maximum": 1000`, `"maximum": 10`, 1)), 0o644)
	if _, _, err := run("render", cfg); err == nil || !strings.Contains(err.Error(), "params.schema.json of events@1.0.0 changed") {
		t.Errorf("a changed params schema: %v", err)
	}
}
