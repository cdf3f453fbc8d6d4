package arch_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// root is what the repository holds at its top level: the design's top
// level (main.go, fn, bundle, examples, docs and the build files), the
// other public packages (cmd, config), internal/, and what a newcomer looks
// for at the root of a public project (README.md, LICENSE, CHANGELOG.md).
// Everything else lives below them: a new package goes under internal/,
// developers' notes in docs/ (docs/DEVELOPMENT.md), the Argo CD manifests
// in examples/argocd/install, the Dockerfile in internal/image, the
// process tests in internal/test/integration, GitHub's files (SECURITY.md,
// CONTRIBUTING.md, the workflows) in .github/.
var root = []string{
	".ci", ".dockerignore", ".github", ".gitignore",
	"CHANGELOG.md", "LICENSE", "Makefile", "README.md", "go.mod", "go.sum", "main.go",
	"bundle", "cmd", "config", "docs", "examples", "fn", "internal",
}

// maxRootEntries bounds the root's entries besides dot-files (issue 36): a
// listing a newcomer takes in at a glance.
const maxRootEntries = 14

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
	visible := 0
	for _, top := range root {
		if !seen[top] {
			t.Errorf("the root layout lists %s, which the repository does not hold: remove it from internal/test/arch", top)
		}
		if !strings.HasPrefix(top, ".") {
			visible++
		}
	}
	if visible > maxRootEntries {
		t.Errorf("the root has %d entries besides dot-files, more than %d: place the new one below an existing folder", visible, maxRootEntries)
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
