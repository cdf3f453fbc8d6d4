package limits_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/golden"

	"github.com/kudo-render/kudo-render/internal/limits"
)

const (
	tableStart = "<!-- limits table: generated from limits.Table (go test ./internal/limits -update) -->\n"
	tableEnd   = "<!-- end of limits table -->\n"
)

// TestDocsListEveryLimit: docs/limits.md's table is limits.MarkdownTable
// (with -update, it is rewritten from it).
func TestDocsListEveryLimit(t *testing.T) {
	data, err := os.ReadFile("../../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start, end := strings.Index(doc, tableStart), strings.Index(doc, tableEnd)
	if start < 0 || end < start {
		t.Fatal("docs/limits.md lacks the markers of the generated table")
	}
	want := doc[:start+len(tableStart)] + limits.MarkdownTable() + doc[end:]
	file, _ := filepath.Abs("../../docs/limits.md") // outside testdata: by absolute path
	golden.Assert(t, want, file)
}
