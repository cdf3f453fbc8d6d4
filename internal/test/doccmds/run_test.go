package doccmds

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/cmd"
)

// blockTimeout bounds one block (make build is run once before them).
const blockTimeout = 3 * time.Minute

// TestDocCommandsRun runs every command of the Markdown files and of the
// commands' --help examples as written, from a fresh-clone-like copy of
// the repository (see the package documentation for the rules).
func TestDocCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the documentation's commands are not run")
	}
	for _, tool := range []string{"bash", "git", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: the documentation's commands need it", tool)
		}
	}
	repo, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	files := markdownFiles(t, repo)
	byFile := map[string][]block{}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		blocks, problems := parseMarkdown(f, string(data))
		for _, p := range problems {
			t.Error(p)
		}
		byFile[f] = blocks
	}
	if t.Failed() {
		t.FailNow() // a marker that does not apply: nothing runs, as it might not be meant to
	}
	for _, b := range helpBlocks(cmd.New(strings.NewReader(""), io.Discard, io.Discard)) {
		byFile[b.where] = []block{b}
	}
	base := newBase(t, repo)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range byFile {
			if !yield(k) {
				return
			}
		}
	}) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var root string // a copy, made for the first block that writes or runs
			copyOnce := func() string {
				if root == "" {
					root = base.clone(t)
				}
				return root
			}
			for _, b := range byFile[name] {
				runBlock(t, base, copyOnce, b)
			}
		})
	}
}

// markdownFiles are the repository's tracked Markdown files, testdata
// left out.
func markdownFiles(t *testing.T, repo string) []string {
	out, err := exec.Command("git", "-C", repo, "ls-files", "-z", "--", "*.md").Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v): the documentation's commands are not run", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if f != "" && !strings.Contains("/"+f, "/testdata/") {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatal("no Markdown files")
	}
	return files
}

// runBlock writes a file block, or runs a block's commands in one bash
// from root, each checked for the exit status the docs give it; the
// commands the docs mark are logged, not run.
func runBlock(t *testing.T, base *base, root func() string, b block) {
	t.Helper()
	if b.file != "" {
		if err := os.WriteFile(filepath.Join(root(), b.file), []byte(b.text), 0o644); err != nil {
			t.Fatalf("%s: %v", b.where, err)
		}
		return
	}
	var script strings.Builder
	script.WriteString("set -o pipefail\n")
	ran := 0
	for _, c := range b.commands {
		if why := base.notRun(c); why != "" {
			if missing := base.missingTools(c); len(missing) > 0 && requireTools() {
				t.Errorf("%s: %s is not installed (make test installs it with .ci/tools.sh)", c.where, strings.Join(missing, ", "))
			}
			t.Logf("%s: not run (%s): %s", c.where, why, firstLine(c.text))
			continue
		}
		ran++
		fmt.Fprintf(&script, "%s\n__s=$?; if [ \"$__s\" -ne %d ]; then echo %s\"$__s\"', want %d' >&2; exit 1; fi\n",
			c.text, c.exit, shellQuote("doc-test: "+c.where+": exit status "), c.exit)
	}
	if ran == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	sh := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-c", script.String())
	sh.Dir, sh.Env, sh.WaitDelay = root(), base.env(root()), 5*time.Second
	var stdout, stderr bytes.Buffer
	sh.Stdout, sh.Stderr = &stdout, &stderr
	start := time.Now()
	if err := sh.Run(); err != nil {
		t.Errorf("%s: %v%s\nstdout: %s\nstderr:\n%s", b.where, err, failed(b, stderr.String()), tail(stdout.String(), 600), tail(stderr.String(), 4000))
		return
	}
	t.Logf("%s: %d commands ran in %s", b.where, ran, time.Since(start).Round(time.Millisecond))
}

// failed names the command whose exit status the script reported.
func failed(b block, stderr string) string {
	for _, c := range b.commands {
		if strings.Contains(stderr, "doc-test: "+c.where+": exit status ") {
			return "\ncommand: " + c.text
		}
	}
	return ""
}

// shellQuote quotes s for bash, in single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func requireTools() bool {
	return os.Getenv("CI") != "" || os.Getenv("KUDO_RENDER_REQUIRE_TOOLS") == "1"
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}
