package migrate_test

import (
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
	"github.com/kudo-render/kudo-render/internal/test/kudotest"
)

// TestImportStrategyAsRun: a live OperatorVersion whose plan says
// "Serial" ran in parallel under KUDO (only "serial" is serial); kudo-render
// refuses the typo in packages, so the rebuilt package says parallel, and
// stderr says so, instead of the import failing.
func TestImportStrategyAsRun(t *testing.T) {
	export := strings.Replace(string(kudotest.Export(t, "testdata/operators/cache/1.2.0", "web", kudotest.Instance{Name: "c"})),
		"strategy: serial", "strategy: Serial", 1)
	if !strings.Contains(export, "strategy: Serial") {
		t.Fatal("the export has no serial strategy to misspell")
	}
	res, err := importBytes(t, []byte(export), migrate.Options{OutDir: "/gitops"})
	if err != nil {
		t.Fatalf("import of a live install whose plan says Serial: %v", err)
	}
	op := string(res.Files["operators/cache/1.2.0/operator.yaml"])
	if strings.Contains(op, "Serial") || !strings.Contains(op, "strategy: parallel") {
		t.Errorf("the rebuilt operator.yaml keeps the strategy KUDO did not know:\n%s", op)
	}
	if !slicesContains(res.Notes, `ran in parallel under KUDO (only "serial" is serial): written as parallel`) {
		t.Errorf("no note says the strategy was rewritten: %v", res.Notes)
	}
}

func slicesContains(notes []string, part string) bool {
	for _, n := range notes {
		if strings.Contains(n, part) {
			return true
		}
	}
	return false
}
