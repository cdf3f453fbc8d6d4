package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"syscall"
	"time"
)

// cmdSpec is one command to measure.
type cmdSpec struct {
	args  []string
	dir   string
	stdin []byte
}

// sample is one run: wall time and peak resident memory.
type sample struct {
	wall time.Duration
	rss  int64 // bytes
}

// once runs c and measures it; the output must be non-empty.
func once(c cmdSpec) (sample, error) {
	cmd := exec.Command(c.args[0], c.args[1:]...)
	cmd.Dir = c.dir
	if c.stdin != nil {
		cmd.Stdin = bytes.NewReader(c.stdin)
	}
	var out, errb countWriter
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return sample{}, fmt.Errorf("%v: %v (%d bytes on stderr)", c.args, err, errb.n)
	}
	if out.n == 0 {
		return sample{}, fmt.Errorf("%v: no output", c.args)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return sample{wall: wall, rss: ru.Maxrss * 1024}, nil
}

type countWriter struct{ n int }

func (w *countWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// result is the medians of several runs.
type result struct {
	wall time.Duration
	rss  int64
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
	walls := make([]time.Duration, len(ss))
	rss := make([]int64, len(ss))
	for i, s := range ss {
		walls[i], rss[i] = s.wall, s.rss
	}
	sort.Slice(walls, func(i, j int) bool { return walls[i] < walls[j] })
	sort.Slice(rss, func(i, j int) bool { return rss[i] < rss[j] })
	return result{wall: walls[len(walls)/2], rss: rss[len(rss)/2]}
}

// ensureHelm finds helm, installing it with go install when missing.
func ensureHelm() (string, error) {
	if p, err := exec.LookPath("helm"); err == nil {
		return p, nil
	}
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return "", err
	}
	p := string(bytes.TrimSpace(gopath)) + "/bin/helm"
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	fmt.Fprintln(os.Stderr, "installing helm: go install helm.sh/helm/v3/cmd/helm@v3.22.0")
	c := exec.Command("go", "install", "helm.sh/helm/v3/cmd/helm@v3.22.0")
	c.Stdout, c.Stderr = os.Stderr, os.Stderr
	if err := c.Run(); err != nil {
		return "", fmt.Errorf("cannot install helm: %w", err)
	}
	return p, nil
}
