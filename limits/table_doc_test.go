package limits_test

import (
	"os"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/limits"
)

// TestDocsListEveryLimit: docs/limits.md has one table row per limit with
// its flag, variable and default, as MarkdownTable writes it.
func TestDocsListEveryLimit(t *testing.T) {
	data, err := os.ReadFile("../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, row := range strings.Split(strings.TrimSpace(limits.MarkdownTable()), "\n") {
		if !strings.Contains(doc, row+"\n") {
			t.Errorf("docs/limits.md lacks the row\n%s\n(paste the output of limits.MarkdownTable)", row)
		}
	}
}
