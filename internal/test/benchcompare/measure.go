package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// cmdSpec is one command to measure.
type cmdSpec struct {
	args  []string
	dir   string
	env   []string // added to the environment
	stdin []byte
}

// with is c run by another binary (the -base build).
func (c cmdSpec) with(bin string) cmdSpec {
	c.args = append([]string{bin}, c.args[1:]...)
	return c
}

// sample is one run: wall time, CPU time (user + system) and peak
// resident memory.
type sample struct {
	wall, cpu time.Duration
	rss       int64 // bytes
}

// once runs c and measures it; the output must be non-empty.
func once(c cmdSpec) (sample, error) {
	cmd := exec.Command(c.args[0], c.args[1:]...)
	cmd.Dir = c.dir
	// No watchdog: a loaded machine can take longer than its 30 s.
	cmd.Env = append(append(os.Environ(), "KUDO_RENDER_TIMEOUT=0"), c.env...)
	if c.stdin != nil {
		cmd.Stdin = bytes.NewReader(c.stdin)
	}
	var out countWriter
	var errb tailWriter
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%v in %s: %v; stderr ends: %s", c.args, c.dir, err, errb.tail)
	}
	if out.n == 0 {
		return sample{}, fmt.Errorf("%v: no output", c.args)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return sample{wall: wall, cpu: cpu, rss: ru.Maxrss * 1024}, nil
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// tailWriter keeps the last 400 bytes written (a failure's message).
type tailWriter struct{ tail []byte }

func (w *tailWriter) Write(p []byte) (int, error) {
	w.tail = append(w.tail, p...)
	if len(w.tail) > 400 {
		w.tail = w.tail[len(w.tail)-400:]
	}
	return len(p), nil
}

// result is the medians of several runs.
type result struct {
	wall, cpu time.Duration
	rss       int64
}

// paired runs the commands in turn, n rounds, and returns each one's
// medians.
func paired(n int, cmds ...cmdSpec) ([]result, error) {
	samples := make([][]sample, len(cmds))
	for range n {
		for i, c := range cmds {
			s, err := once(c)
			if err != nil {
				return nil, err
			}
			samples[i] = append(samples[i], s)
		}
	}
	out := make([]result, len(cmds))
	for i, ss := range samples {
		out[i] = median(ss)
	}
	return out, nil
}

func median(ss []sample) result {
	pick := func(f func(sample) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	return result{
		wall: time.Duration(pick(func(s sample) int64 { return int64(s.wall) })),
		cpu:  time.Duration(pick(func(s sample) int64 { return int64(s.cpu) })),
		rss:  pick(func(s sample) int64 { return s.rss }),
	}
}

// helmVersion is a Helm release to compare with.
type helmVersion struct {
	name, module, version string
}

// ensureHelm returns the helm binary of h, installed with go install into
// ~/.cache/kudo-render/helm/VERSION when it is not there yet (each
// version in a folder of its own: both are named helm).
func ensureHelm(h helmVersion) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "kudo-render", "helm", h.version)
	p := filepath.Join(dir, "helm")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	fmt.Fprintf(os.Stderr, "installing %s: GOBIN=%s go install %s@%s\n", h.name, dir, h.module, h.version)
	c := exec.Command("go", "install", h.module+"@"+h.version)
	c.Env = append(os.Environ(), "GOBIN="+dir)
	c.Stdout, c.Stderr = os.Stderr, os.Stderr
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("cannot install %s: %w", h.name, err)
	}
	return p, nil
}
