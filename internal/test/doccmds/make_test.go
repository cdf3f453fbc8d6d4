package doccmds

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMakeHelp: `make help` lists every target of the Makefile's .PHONY
// lines but the default one (all), each with its text.
func TestMakeHelp(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	repo := filepath.Join("..", "..", "..")
	data, err := os.ReadFile(filepath.Join(repo, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	var phony []string
	for _, m := range regexp.MustCompile(`(?m)^\.PHONY:(.*)$`).FindAllStringSubmatch(string(data), -1) {
		phony = append(phony, strings.Fields(m[1])...)
	}
	if !slices.Contains(phony, "help") {
		t.Fatalf(".PHONY lists no help target: %v", phony)
	}
	c := exec.Command("make", "-s", "--no-print-directory", "help")
	c.Dir = repo
	out, err := c.Output()
	if err != nil {
		t.Fatalf("make help: %v", err)
	}
	listed := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		target, text, _ := strings.Cut(strings.TrimSpace(line), " ")
		listed[target] = strings.TrimSpace(text)
	}
	for _, target := range phony {
		if target == "all" {
			continue
		}
		if listed[target] == "" {
			t.Errorf("make help does not list %s: write a `## %s: what it does` line above it in the Makefile", target, target)
		}
	}
	for target := range listed {
		if !slices.Contains(phony, target) {
			t.Errorf("make help lists %s, which no .PHONY line names", target)
		}
	}
}
