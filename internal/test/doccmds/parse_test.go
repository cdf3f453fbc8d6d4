package doccmds

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// A command is one command of the docs or of an example of --help, as
// written (continuation lines included), with what the docs say of it.
type command struct {
	where string   // file:line, or the command's help
	text  string   // as written
	exit  int      // the exit status it must have
	skip  string   // why it is not run; "" runs it
	needs []string // tools it needs on PATH
}

// A block is what runs in one bash from the copy's root: the commands of
// one fenced block, or the examples of one command's --help.
type block struct {
	where    string
	commands []command
	file     string // doc-test: file PATH: text is written to PATH
	text     string
}

var (
	fenceRE  = regexp.MustCompile("^([ \t]*)(`{3,}|~{3,})[ \t]*([^`]*)$")
	markerRE = regexp.MustCompile(`^<!--\s*doc-test:\s*(.*?)\s*-->$`)
	exitRE   = regexp.MustCompile(`^exit (\d+)\b`)
	toolRE   = regexp.MustCompile(`^[A-Za-z0-9._+-]+$`)
)

// shellInfo are the info strings of blocks that are commands.
var shellInfo = []string{"sh", "bash", "shell", "zsh", "console"}

// commandWords start a line that is a command: a block that is not
// labelled as one but starts with one is a mistake.
var commandWords = []string{"kudo-render", "bin/kudo-render", "make", "kpt", "kustomize", "kubectl", "go", "git", "cd", "flux", "helm", "docker", "crane", "sed", "cat"}

// parseMarkdown returns the blocks of a Markdown file that run or write a
// file, and its problems: blocks that look like commands but are not
// labelled so, markers the test does not know.
func parseMarkdown(name, data string) (blocks []block, problems []string) {
	lines := strings.Split(data, "\n")
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, fence, info := m[1], m[2], strings.Fields(strings.NewReplacer("{", " ", ",", " ").Replace(m[3]))
		start := i + 1
		var body []string
		for i++; i < len(lines); i++ {
			if t := strings.TrimSpace(lines[i]); strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				break
			}
			body = append(body, strings.TrimPrefix(lines[i], indent))
		}
		where := fmt.Sprintf("%s:%d", name, start)
		b := block{where: where, text: strings.Join(body, "\n") + "\n"}
		var c command // the block's directives, applied to each command
		skips := map[string]string{}
		for _, d := range markers(lines, start-1) {
			if !blockDirective(&b, &c, skips, d) {
				problems = append(problems, fmt.Sprintf("%s: unknown doc-test directive %q", where, d))
			}
		}
		shell := len(info) > 0 && slices.Contains(shellInfo, info[0])
		console := !shell || info[0] == "console"
		b.commands = commands(name, start+1, body, console, c)
		problems = append(problems, skipCommands(where, b.commands, skips)...)
		if !shell && len(b.commands) == 0 && looksLikeCommand(body) {
			problems = append(problems, fmt.Sprintf("%s: a block of commands that is not labelled sh (or text, if it is output)", where))
		}
		if len(b.commands) > 0 || b.file != "" {
			blocks = append(blocks, b)
		}
	}
	return blocks, problems
}

// markers are the doc-test directives of the lines right above line i
// (0-based), nearest last.
func markers(lines []string, i int) []string {
	var out []string
	for i--; i >= 0; i-- {
		m := markerRE.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			break
		}
		out = append([]string{m[1]}, out...)
	}
	return out
}

// skipOneRE is the directive that skips the commands of a block that are
// the text between backquotes (without their comment; spaces collapsed).
var skipOneRE = regexp.MustCompile("^skip `([^`]+)`:\\s*(\\S.*)$")

// blockDirective applies a marker's directive to the block, to c, the
// template of its commands, or to skips (command prefix: reason); false
// for a directive it does not know.
func blockDirective(b *block, c *command, skips map[string]string, d string) bool {
	switch {
	case strings.HasPrefix(d, "file "):
		b.file = strings.TrimSpace(strings.TrimPrefix(d, "file "))
		return b.file != ""
	case strings.HasPrefix(d, "skip:"):
		c.skip = strings.TrimSpace(strings.TrimPrefix(d, "skip:"))
		return c.skip != ""
	case skipOneRE.MatchString(d):
		m := skipOneRE.FindStringSubmatch(d)
		skips[m[1]] = m[2]
		return true
	}
	return directive(c, d)
}

// skipCommands marks the commands skips names as not run, with its
// reason; a name that is no command of the block is a problem.
func skipCommands(where string, cmds []command, skips map[string]string) []string {
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(skips)) {
		found := false
		for i := range cmds {
			if bare(cmds[i].text) == bare(name) {
				cmds[i].skip, found = skips[name], true
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("%s: doc-test: skip `%s`: no command of the block is that", where, name))
		}
	}
	return problems
}

// bare is a command without its trailing comment, spaces collapsed.
func bare(text string) string {
	last := strings.LastIndex(text, "\n") + 1
	if i := commentStart(text[last:]); i >= 0 {
		text = text[:last+i]
	}
	return strings.Join(strings.Fields(text), " ")
}

// directive applies "exit N", "needs a cluster", "needs network" or
// "needs TOOL..." (up to a colon) to c; false for any other text.
func directive(c *command, d string) bool {
	switch {
	case exitRE.MatchString(d):
		c.exit, _ = strconv.Atoi(exitRE.FindStringSubmatch(d)[1])
	case strings.HasPrefix(d, "needs a cluster"):
		c.skip = "needs a cluster"
	case strings.HasPrefix(d, "needs network"):
		c.skip = "needs network"
	case strings.HasPrefix(d, "needs "):
		tools, _, _ := strings.Cut(strings.TrimPrefix(d, "needs "), ":")
		for _, tool := range strings.Fields(tools) {
			if !toolRE.MatchString(tool) {
				break // "needs dot (Graphviz)"
			}
			c.needs = append(c.needs, tool)
		}
	default:
		return false
	}
	return true
}

// commands splits lines (those after "$ " only, for a console) into
// commands, joining continuation lines, each with the directives of the
// block (tmpl) and of its trailing comment. line is the first one's
// number.
func commands(name string, line int, lines []string, console bool, tmpl command) []command {
	var out []command
	for k := 0; k < len(lines); k++ {
		l := lines[k]
		if console {
			var ok bool
			if l, ok = strings.CutPrefix(strings.TrimLeft(l, " \t"), "$ "); !ok {
				continue
			}
		}
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		c := tmpl
		c.where, c.needs = fmt.Sprintf("%s:%d", name, line+k), slices.Clone(tmpl.needs)
		for strings.HasSuffix(l, "\\") && k+1 < len(lines) {
			k++
			l += "\n" + lines[k]
		}
		c.text = l
		directive(&c, trailingComment(l[strings.LastIndex(l, "\n")+1:]))
		out = append(out, c)
	}
	return out
}

// trailingComment is the text of a shell line's comment, trimmed; ""
// without one.
func trailingComment(line string) string {
	if i := commentStart(line); i >= 0 {
		return strings.TrimSpace(line[i+1:])
	}
	return ""
}

// commentStart is the index of the "#" that starts a shell line's comment
// (one that starts a word outside quotes), or -1.
func commentStart(line string) int {
	var quote rune
	for i, r := range line {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return i
		}
	}
	return -1
}

// looksLikeCommand: the block's first line starts with a command word.
func looksLikeCommand(body []string) bool {
	for _, l := range body {
		if f := strings.Fields(l); len(f) > 0 {
			return slices.Contains(commandWords, f[0])
		}
	}
	return false
}

// helpBlocks are the examples of every command of the tree, one block per
// command, one command per line.
func helpBlocks(root *cobra.Command) []block {
	var out []block
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example != "" {
			where := c.CommandPath() + " --help"
			out = append(out, block{where: where, commands: commands(where+", example", 1, strings.Split(c.Example, "\n"), false, command{})})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	return out
}
