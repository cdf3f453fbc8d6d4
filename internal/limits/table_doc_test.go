package limits_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/test/golden"
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
	golden.Check(t, "../../docs/limits.md", []byte(want), false)
}
