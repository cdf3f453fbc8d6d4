package doccmds

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

var (
	// inlineLinkRE is a Markdown link or image, [text](target "title"),
	// with code spans already removed.
	inlineLinkRE = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// refLinkRE is a link reference definition, [name]: target.
	refLinkRE = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)
	// codeSpanRE is an inline code span (a run of backticks, its text,
	// the same run).
	codeSpanRE = regexp.MustCompile("(`+)[^`]*?(`+)")
	// goDocLinkRE is a Markdown file and anchor named in Go source (a
	// --help text, a message, a comment): docs/limits.md#the-renders-budget.
	goDocLinkRE = regexp.MustCompile(`\b((?:docs/|examples/)?[A-Za-z0-9_./-]*\.md)#([A-Za-z0-9_-]+)`)
)

// link is a link found in a file: where, its target, and the file it is
// relative to.
type link struct {
	where, target, from string
}

// TestDocLinks: every relative link of the Markdown files names a file or
// folder the repository tracks, and every #fragment a heading of its file
// (as GitHub makes anchors); anchors that Go source names (--help texts,
// messages) are checked the same way. A moved or renamed section breaks
// this test instead of a reader's link.
func TestDocLinks(t *testing.T) {
	repo, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tracked := trackedFiles(t, repo)
	anchors := map[string][]string{} // Markdown file -> its anchors, read once
	var links []link
	md := markdownFiles(t, repo)
	for _, f := range md {
		data, err := os.ReadFile(filepath.Join(repo, f))
		if err != nil {
			t.Fatal(err)
		}
		links = append(links, markdownLinks(f, string(data))...)
	}
	for _, f := range tracked {
		if strings.HasSuffix(f, ".go") && !strings.Contains("/"+f, "/testdata/") {
			data, err := os.ReadFile(filepath.Join(repo, f))
			if err != nil {
				t.Fatal(err)
			}
			links = append(links, goDocLinks(f, string(data))...)
		}
	}
	if len(links) == 0 {
		t.Fatal("no links found: the parser is broken")
	}
	t.Logf("%d links of %d Markdown files and of Go source", len(links), len(md))
	for _, l := range links {
		if msg := checkLink(repo, tracked, anchors, l); msg != "" {
			t.Errorf("%s: link %q: %s", l.where, l.target, msg)
		}
	}
}

// checkLink returns what is wrong with l, or "".
func checkLink(repo string, tracked []string, anchors map[string][]string, l link) string {
	target, frag, _ := strings.Cut(l.target, "#")
	file := l.from
	if target != "" {
		file = path.Clean(path.Join(path.Dir(l.from), target))
		if file == ".." || strings.HasPrefix(file, "../") {
			return "leaves the repository"
		}
	}
	if l.from == "go.mod" && !strings.Contains(target, "/") && !slices.Contains(tracked, file) {
		file = path.Join("docs", target) // Go source names a page of docs/ by its name
	}
	isFile := slices.Contains(tracked, file)
	isDir := slices.ContainsFunc(tracked, func(f string) bool { return strings.HasPrefix(f, file+"/") }) || file == "."
	switch {
	case !isFile && !isDir:
		return fmt.Sprintf("%s is not a file or folder of the repository", file)
	case frag == "":
		return ""
	case !strings.HasSuffix(file, ".md"):
		return "" // a line anchor of a source file (#L12) is GitHub's
	}
	a, ok := anchors[file]
	if !ok {
		data, err := os.ReadFile(filepath.Join(repo, file))
		if err != nil {
			return err.Error()
		}
		a = headingAnchors(string(data))
		anchors[file] = a
	}
	if !slices.Contains(a, frag) {
		return fmt.Sprintf("%s has no heading with the anchor #%s (its anchors: %s)", file, frag, strings.Join(a, " "))
	}
	return ""
}

// markdownLinks are the relative links of a Markdown file (code blocks
// and code spans left out): inline links, images and link definitions.
func markdownLinks(name, text string) []link {
	var out []link
	for i, line := range proseLines(text) {
		if line == "" {
			continue
		}
		var targets []string
		for _, m := range inlineLinkRE.FindAllStringSubmatch(codeSpanRE.ReplaceAllString(line, ""), -1) {
			targets = append(targets, m[1])
		}
		if m := refLinkRE.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, tgt := range targets {
			if isRelative(tgt) {
				out = append(out, link{where: fmt.Sprintf("%s:%d", name, i+1), target: tgt, from: name})
			}
		}
	}
	return out
}

// goDocLinks are the Markdown anchors a Go file names, relative to the
// repository's root.
func goDocLinks(name, text string) []link {
	var out []link
	for i, line := range strings.Split(text, "\n") {
		for _, m := range goDocLinkRE.FindAllStringSubmatch(line, -1) {
			if strings.Contains(m[1], "://") || strings.HasPrefix(m[1], "/") {
				continue
			}
			out = append(out, link{where: fmt.Sprintf("%s:%d", name, i+1), target: m[1] + "#" + m[2], from: "go.mod"})
		}
	}
	return out
}

// isRelative tells a link into the repository from one to the web, to
// mail or to nowhere.
func isRelative(target string) bool {
	if target == "" || strings.HasPrefix(target, "//") || strings.HasPrefix(target, "/") {
		return false
	}
	scheme, _, ok := strings.Cut(target, ":")
	return !ok || strings.ContainsAny(scheme, "/#.")
}

// proseLines are the lines of a Markdown text with the lines of fenced
// code blocks blanked, so that line numbers stay.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	fence := ""
	for i, line := range lines {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.TrimSpace(strings.TrimLeft(trimmed, fence[:1])) == "" {
				fence = ""
			}
			lines[i] = ""
			continue
		}
		for _, f := range []string{"```", "~~~"} {
			if strings.HasPrefix(trimmed, f) {
				fence = trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, f[:1]))]
				lines[i] = ""
			}
		}
	}
	return lines
}

// headingAnchors are the anchors GitHub gives the headings of a Markdown
// text: the heading's text lower-cased, without markup and punctuation
// but hyphens and underscores, spaces made hyphens; a repeated anchor
// gets -1, -2, ...
func headingAnchors(text string) []string {
	var out []string
	seen := map[string]int{}
	for _, line := range proseLines(text) {
		trimmed := strings.TrimLeft(line, " ")
		level := len(trimmed) - len(strings.TrimLeft(trimmed, "#"))
		if level == 0 || level > 6 || len(line)-len(trimmed) > 3 || !strings.HasPrefix(trimmed[level:]+" ", " ") {
			continue
		}
		a := slug(strings.TrimRight(strings.TrimSpace(trimmed[level:]), "#"))
		if n := seen[a]; n > 0 {
			out = append(out, fmt.Sprintf("%s-%d", a, n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}

// slug is GitHub's anchor of a heading's text.
func slug(heading string) string {
	heading = inlineLinkRE.ReplaceAllString(heading, "]") // [text](target): the text
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// trackedFiles are the files git tracks in repo, as they are in the
// working tree (a tracked file deleted there is left out).
func trackedFiles(t *testing.T, repo string) []string {
	t.Helper()
	out, err := exec.Command("git", "-C", repo, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("not a git checkout (git ls-files: %v): the links are not checked", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if _, err := os.Lstat(filepath.Join(repo, f)); err == nil {
			files = append(files, f)
		}
	}
	return files
}

// TestHeadingAnchors: the anchors GitHub gives headings, which the links
// of the docs use.
func TestHeadingAnchors(t *testing.T) {
	const doc = "# kudo-render\n" +
		"## What validation against the Kubernetes API costs\n" +
		"## The render's budget\n" +
		"### `kudo-render diff`\n" +
		"## Extending a framework (KEP-0012)\n" +
		"## 1. Stop KUDO's controller\n" +
		"```sh\n# a comment, not a heading\n```\n" +
		"## Build\n" +
		"## Build\n" +
		"#not a heading\n" +
		"## Names: unique, valid, and stable when plans are added\n" +
		"## A [linked](other.md) heading\n"
	want := []string{
		"kudo-render",
		"what-validation-against-the-kubernetes-api-costs",
		"the-renders-budget",
		"kudo-render-diff",
		"extending-a-framework-kep-0012",
		"1-stop-kudos-controller",
		"build",
		"build-1",
		"names-unique-valid-and-stable-when-plans-are-added",
		"a-linked-heading",
	}
	if got := headingAnchors(doc); !slices.Equal(got, want) {
		t.Errorf("anchors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMarkdownLinks: which links of a Markdown file are checked.
func TestMarkdownLinks(t *testing.T) {
	const doc = "See [limits](limits.md#the-renders-budget), [the web](https://kudo.dev),\n" +
		"[mail](mailto:x@example.com) and ![plot](plot.svg).\n" +
		"`[not](a-link.md)` in code, and a [section](#here) of this file.\n" +
		"```sh\n[not](either.md)\n```\n" +
		"[ref]: ../examples/README.md\n"
	var got []string
	for _, l := range markdownLinks("docs/x.md", doc) {
		got = append(got, l.where+" "+l.target)
	}
	want := []string{
		"docs/x.md:1 limits.md#the-renders-budget",
		"docs/x.md:2 plot.svg",
		"docs/x.md:3 #here",
		"docs/x.md:7 ../examples/README.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("links:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
