package hostile_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// Limits every case must stay within.
const (
	maxRSS  = 1 << 30 // bytes of peak resident memory
	maxTime = 30 * time.Second
	asCap   = 4 << 30 // address-space cap of the process (ulimit -v 4194304)
)

var binary string

func TestMain(m *testing.M) {
	if b := os.Getenv("KUDO_RENDER_HOSTILE_BINARY"); b != "" {
		// Another build (an older main, to see a new case fail on it).
		binary = b
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "kudo-render-hostile")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "kudo-render")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Dir = "../../.."
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		panic("cannot build kudo-render: " + err.Error())
	}
	code := m.Run()
	kubetest.Stop() // the adopt cases' API server
	os.RemoveAll(dir)
	os.Exit(code)
}

// hostileCase is one attack.
type hostileCase struct {
	class  string // the class of docs/limits.md it attacks
	reason string
	// setup builds the input below dir and returns the arguments; args
	// may use {dir}, {out} (an -o folder that must not change).
	setup func(t *testing.T, dir string) []string
	env   []string
	stdin func(dir string) ([]byte, error)
	// stderr must match this regular expression.
	stderr string
	// wd is the working directory, relative to dir ("" is dir).
	wd string
	// succeed inverts the checks: the run must succeed (exit 0); check
	// then looks at the result.
	succeed bool
	check   func(t *testing.T, dir, stdout string)
	// exit is the status of a refusal: 1, or 2 for diff (0 means 1).
	exit int
	// after, when set, looks at dir once the run ended, whatever its
	// outcome (what it must have left behind, or not).
	after func(t *testing.T, dir string)
	// within, when set, bounds the run tighter than maxTime: a refusal
	// that must come at once, not at the watchdog.
	within time.Duration
	// forbid are texts that must reach neither stdout nor stderr (a
	// secret, a raw control character).
	forbid []string
}

type result struct {
	stdout, stderr string
	code           int
	signal         string
	rss            int64
	took           time.Duration
}

// runCase runs the binary under the address-space cap.
func runCase(t *testing.T, dir, wd string, args, env []string, stdin []byte) result {
	t.Helper()
	// /usr/bin/time measures the peak memory of its own child (the
	// rusage of a process forked from this large test binary would count
	// this binary's pages too); prlimit caps the address space.
	rssFile := filepath.Join(dir, ".rss")
	argv := append([]string{"--as=" + strconv.Itoa(asCap), "--", "/usr/bin/time", "-f", "%M", "-o", rssFile, binary}, args...)
	c := exec.Command("prlimit", argv...)
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Logf("prlimit not found: running without the address-space cap")
		c = exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile, binary}, args...)...)
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Logf("/usr/bin/time not found: peak memory is not measured")
		c = exec.Command(binary, args...)
	}
	c.Dir = filepath.Join(dir, wd)
	c.Env = append([]string{"HOME=" + dir, "PATH=" + os.Getenv("PATH"), "KUDO_RENDER_CACHE=" + filepath.Join(dir, ".cache")}, env...)
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	err := c.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			r.signal = ws.Signal().String()
		}
	case err != nil:
		t.Fatal(err)
	}
	if data, err := os.ReadFile(rssFile); err == nil {
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		kb, _ := strconv.ParseInt(strings.TrimSpace(lines[len(lines)-1]), 10, 64)
		r.rss = kb * 1024
		os.Remove(rssFile)
	}
	return r
}

func runCases(t *testing.T, cases map[string]hostileCase) {
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "out")
			if err := os.MkdirAll(filepath.Join(out, "keep"), 0o755); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(out, "keep", "mine.txt"), []byte("not kudo-render's"), 0o644)
			args := tc.setup(t, dir)
			expand := strings.NewReplacer("{dir}", dir, "{out}", out).Replace
			for i, a := range args {
				args[i] = expand(a)
			}
			env := make([]string, len(tc.env))
			for i, e := range tc.env {
				env[i] = expand(e)
			}
			var stdin []byte
			if tc.stdin != nil {
				var err error
				if stdin, err = tc.stdin(dir); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, out)
			r := runCase(t, dir, tc.wd, args, env, stdin)
			t.Logf("%s: exit %d, peak RSS %d MiB, %s", tc.class, r.code, r.rss>>20, r.took.Round(time.Millisecond))
			if tc.after != nil {
				defer tc.after(t, dir)
			}
			checkBounds(t, tc, r)
			checkForbidden(t, tc, r)
			if tc.succeed {
				if r.code != 0 {
					t.Fatalf("%s\nwant success, got exit %d: %s", tc.reason, r.code, r.stderr)
				}
				if tc.check != nil {
					tc.check(t, dir, r.stdout)
				}
				return
			}
			checkRefused(t, tc, r)
			assert.Check(t, is.DeepEqual(before, snapshot(t, out)), "%s\n--output-dir changed", tc.reason)
		})
	}
}

func checkBounds(t *testing.T, tc hostileCase, r result) {
	t.Helper()
	if r.signal != "" || r.code == 2 && tc.exit != 2 || strings.Contains(r.stderr, "fatal error") || strings.Contains(r.stderr, "panic:") {
		t.Fatalf("%s\ncrashed (exit %d, signal %q):\n%s", tc.reason, r.code, r.signal, head(r.stderr))
	}
	if r.rss > maxRSS {
		t.Errorf("%s\npeak memory %d MiB, want under %d MiB", tc.reason, r.rss>>20, maxRSS>>20)
	}
	if r.took > maxTime {
		t.Errorf("%s\ntook %s, want under %s", tc.reason, r.took, maxTime)
	}
	if tc.within > 0 && r.took > tc.within {
		t.Errorf("%s\ntook %s, want under %s", tc.reason, r.took, tc.within)
	}
}

func checkForbidden(t *testing.T, tc hostileCase, r result) {
	t.Helper()
	for _, f := range tc.forbid {
		for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
			if strings.Contains(out, f) {
				t.Errorf("%s\n%s holds %q:\n%s", tc.reason, name, f, head(out))
			}
		}
	}
}

func checkRefused(t *testing.T, tc hostileCase, r result) {
	t.Helper()
	want := tc.exit
	if want == 0 {
		want = 1
	}
	if r.code != want {
		t.Errorf("%s\nexit %d, want %d; stderr:\n%s", tc.reason, r.code, want, head(r.stderr))
	}
	if r.stdout != "" {
		t.Errorf("%s\nstdout must be empty, got %d bytes: %q", tc.reason, len(r.stdout), head(r.stdout))
	}
	if !regexp.MustCompile(tc.stderr).MatchString(r.stderr) {
		t.Errorf("%s\nstderr does not match %q:\n%s", tc.reason, tc.stderr, head(r.stderr))
	}
}

// snapshot reads a folder: path -> content, "-> target" for links.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		case d.Type().IsRegular():
			data, _ := os.ReadFile(p)
			out[rel] = string(data)
		case d.IsDir():
			out[rel+"/"] = ""
		}
		return nil
	})
	return out
}

func head(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// write creates files below dir: path -> content.
func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
