package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/fn"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/runner"
)

// Version is set at build time with -ldflags "-X .../cmd.Version=...".
var Version = "dev"

// New returns the root command reading stdin and writing stdout and
// stderr.
func New(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	return newRoot(stdin, stdout, stderr, nil)
}

// Main is the command of the kudo-render process: like New, plus a
// watchdog (--timeout) that ends the process with exit status 1 and
// nothing on stdout when a render runs too long (a template that loops).
// Once output has begun the watchdog no longer fires, so stdout never
// carries a partial stream.
//
// Main also sets the process's soft memory limit (see softMemoryLimit).
func Main(stdin io.Reader, stdout, stderr io.Writer, exit func(int)) *cobra.Command {
	softMemoryLimit(os.Getenv)
	return newRoot(stdin, stdout, stderr, exit)
}

// SoftMemoryLimit is the heap size Go's garbage collector works to stay
// under (runtime/debug.SetMemoryLimit) unless GOMEMLIMIT says otherwise.
// The render's budget bounds what a render keeps (docs/limits.md); without
// a limit the collector lets the heap grow to twice that before it
// collects (GOGC=100), and a render at the edge of its budget would pass
// 1 GiB.
const SoftMemoryLimit = 640 << 20

// softMemoryLimit sets SoftMemoryLimit unless GOMEMLIMIT is set (the Go
// runtime reads it itself).
func softMemoryLimit(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(SoftMemoryLimit)
	}
}

func newRoot(stdin io.Reader, stdout, stderr io.Writer, exit func(int)) *cobra.Command {
	var g gitFlags
	var timeout time.Duration
	lf := &limitFlags{}
	out := output.NewWriter(stdout)
	// SIGINT and SIGTERM while a folder is written: what was built is
	// removed, or the swap under way finishes, before the process ends.
	out.Building = func() func() { return onInterrupt(out.Interrupt) }
	root := &cobra.Command{
		Use:   "kudo-render",
		Short: "Render KUDO operator packages and KEP-0009 frameworks into GitOps manifests",
		Long: `Render KUDO operator packages and KEP-0009 frameworks into GitOps manifests.

Without arguments kudo-render is a KRM function: it reads a
config.kubernetes.io/v1 ResourceList on stdin (kpt fn render, kustomize
build --enable-alpha-plugins --enable-exec) and writes one on stdout.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          unknownCommand,
		Version:       version(),
		// a typo of a command is suggested its name (unknownCommand)
		SuggestionsMinimumDistance: 2,
		RunE: func(c *cobra.Command, _ []string) error {
			if isTerminal(stdin) {
				return c.Help()
			}
			return runFunction(&g, stdin, out, stderr)
		},
	}
	g.register(root)
	lf.register(root)
	g.limits = &lf.lim
	root.PersistentFlags().DurationVar(&timeout, "timeout", limits.Default().Timeout, "give up (exit 1, nothing on stdout) after this long; 0: never (env KUDO_RENDER_TIMEOUT)")
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		lim, err := lf.resolve(os.Getenv)
		if err != nil {
			return withCode(c, err)
		}
		if !c.Flags().Changed("timeout") {
			timeout = lim.Timeout
		}
		if timeout < 0 {
			return withCode(c, fmt.Errorf("--timeout %s: must not be negative (0 means never)", timeout))
		}
		lf.lim.Timeout = timeout
		limits.SetCurrent(lf.lim)
		if exit != nil && timeout > 0 {
			code := errorCode(c)
			g.deadline = time.Now().Add(timeout - watchdogMargin(timeout))
			time.AfterFunc(timeout, func() {
				// What was running, before Expire stops a folder being written.
				msg := gaveUp(timeout, activity.Waits(), activity.Running())
				if out.Expire() {
					fmt.Fprintln(stderr, "error: "+msg)
					removeTemps()
					exit(code)
				}
			})
		}
		return nil
	}
	root.SetVersionTemplate("{{.Version}}\n") // as the version command prints it
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRender(&g, out, stderr), newVerify(&g, out, stderr), newVersion(out), newSchema(&g, out, stderr), newCMP(&g, out, stderr), newLock(&g, out, stderr),
		newDiff(&g, out, stderr), newGraph(&g, out, stderr), newImport(&g, out, stderr), newAdopt(&g, out, stderr), newPush(&g, out, stderr))
	return root
}

// watchdogMargin is how long before the watchdog (--timeout) operations
// that wait on a server (an OCI registry, a cluster) give up by
// themselves, so that their error, which names the server and the
// request, ends the run instead of the watchdog's: a fifth of the run's
// time, at most 2 s.
func watchdogMargin(timeout time.Duration) time.Duration {
	return min(timeout/5, 2*time.Second)
}

// gaveUp is the watchdog's message: what was running when the run was
// given up on. Operations waiting outside the process (activity.Waits: git) come first: a
// hung server is the likeliest cause; then the activities of the process
// (activity.Doing), the latest first.
func gaveUp(timeout time.Duration, git, doing []string) string {
	msg := fmt.Sprintf("gave up after %s (--timeout)", timeout)
	if len(doing) > 4 {
		doing = append(doing[:4:4], fmt.Sprintf("%d more", len(doing)-4))
	}
	switch {
	case len(git) > 0:
		msg += ": a " + strings.Join(git, " and a ") + " was running"
		if len(doing) > 0 {
			msg += " (also under way: " + strings.Join(doing, "; ") + ")"
		}
	case len(doing) > 0:
		msg += " while " + doing[0]
		if len(doing) > 1 {
			msg += " (also under way: " + strings.Join(doing[1:], "; ") + ")"
		}
	}
	return msg + "; raise the limit with --timeout or KUDO_RENDER_TIMEOUT (0: never)"
}

// withCode gives err the command's exit status on error.
func withCode(c *cobra.Command, err error) error {
	if code := errorCode(c); code != 1 {
		return &ExitError{Code: code, Err: err}
	}
	return err
}

// errorCode is a command's exit status on error: 1, or what its
// "exit-on-error" annotation says (diff: 2, as 1 means "changes").
func errorCode(c *cobra.Command) int {
	if c.Annotations["exit-on-error"] == "2" {
		return 2
	}
	return 1
}

// unknownCommand refuses arguments to the root command (the KRM function
// reads stdin), suggesting the command a typo meant.
func unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
	if s := c.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return errors.New(msg + " (kudo-render --help lists the commands)")
}

// version is Version as the build stamped it, else the module version
// `go install …@v1.2.3` records, else the VCS revision the Go toolchain
// records (with "+dirty" for uncommitted changes), else "dev".
func version() string {
	if Version != "dev" {
		return Version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		return "dev-" + rev[:12] + dirty
	}
	return Version
}

func newVersion(out *output.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version (also --version)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			return out.Write([]byte(version() + "\n"))
		},
	}
}

// isTerminal reports whether r is a terminal (not merely a character
// device: /dev/null is one, and `kudo-render < /dev/null` is an empty
// ResourceList, an error, not a request for help).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// runFunction runs the KRM function in the current directory.
func runFunction(g *gitFlags, stdin io.Reader, out *output.Writer, stderr io.Writer) error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	f := &fn.Function{Dir: dir, Warn: warner(stderr),
		SourcesFor: func(cfg *config.Config) runner.Sources { return g.sources(stderr, cfg) }}
	// The ResourceList is written whole, after the function ran (with its
	// results when it failed: that is how KRM orchestrators learn why).
	list, err := f.Output(stdin)
	if werr := out.Write(list); err == nil {
		err = werr
	}
	return err
}

func warner(stderr io.Writer) func(string) {
	return func(msg string) { fmt.Fprintln(stderr, "warning:", msg) }
}

// progress writes progress lines to stderr when it is a terminal (not to
// pipes or CI logs); nil otherwise.
func progress(stderr io.Writer) func(string) {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(msg string) { fmt.Fprintln(stderr, msg) }
}
