package arch_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// root is what the repository holds at its top level: the design's top
// level (main.go, fn, bundle, examples and the build files) plus cmd,
// config, docs, deploy and the CI folders. Everything else is under
// internal/, so a new package at the root fails here.
var root = []string{
	".ci", ".dockerignore", ".github", ".gitignore",
	"Dockerfile", "Kptfile", "Makefile", "README.md", "go.mod", "go.sum", "main.go", "main_test.go",
	"bundle", "cmd", "config", "deploy", "docs", "examples", "fn", "internal",
}

// publicPackages are the packages other modules may import: the package
// model (bundle), the FunctionConfig API (config), the KRM function (fn) and
// the CLI (cmd). Each says why in its doc.go.
var publicPackages = []string{"", "bundle", "config", "fn", "cmd"}

func TestRootLayout(t *testing.T) {
	cmd := exec.Command("git", "ls-files")
	cmd.Dir = "../../.."
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout)", err)
	}
	seen := map[string]bool{}
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		top, _, _ := strings.Cut(f, "/")
		if !seen[top] && !slices.Contains(root, top) {
			t.Errorf("%s is at the repository's root; move it under internal/ (or add it to the design's top level in internal/test/arch)", top)
		}
		seen[top] = true
	}
}

func TestOnlyPublicPackagesOutsideInternal(t *testing.T) {
	for _, p := range list(t) {
		r := rel(p.ImportPath)
		if strings.HasPrefix(r, "internal/") || under(r, publicPackages[1:]) || r == "" {
			continue
		}
		t.Errorf("package %s is outside internal/; only %v may be imported by other modules", r, publicPackages[1:])
	}
}
