package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/test/inittrace"
)

// initCost is what one package's initialiser costs a process.
type initCost struct {
	ms     float64 // clock time
	bytes  int64
	allocs int64
}

// initCosts runs bin version n times with the trace on and returns each
// package's medians.
func initCosts(bin string, n int) (map[string]initCost, error) {
	var runs []map[string]initCost
	for range n {
		cmd := exec.Command(bin, "version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("%s version: %w", bin, err)
		}
		r := map[string]initCost{}
		for _, i := range inittrace.Parse(stderr.Bytes()) {
			r[i.Package] = initCost{ms: i.Ms, bytes: i.Bytes, allocs: i.Allocs}
		}
		runs = append(runs, r)
	}
	out := map[string]initCost{}
	for p := range runs[0] {
		var ms []float64
		var b, a []int64
		for _, r := range runs {
			ms, b, a = append(ms, r[p].ms), append(b, r[p].bytes), append(a, r[p].allocs)
		}
		out[p] = initCost{ms: median(ms), bytes: median(b), allocs: median(a)}
	}
	return out, nil
}

func median[T int64 | float64](v []T) T {
	slices.Sort(v)
	return v[len(v)/2]
}

// symbolSizes builds an unstripped binary of pkg (as make build does, but
// with its symbols) and adds up the sizes of its symbols by package (go
// tool nm -size); type descriptors and itabs count for the package that
// names them.
func symbolSizes(dir, pkg, tmp string, known map[string][]string) (map[string]int64, error) {
	exe := tmp + "/weight-syms"
	build := exec.Command("go", "build", "-trimpath", "-o", exe, pkg)
	build.Dir, build.Stderr = dir, os.Stderr
	build.Env = append(os.Environ(), "CGO_ENABLED=0") // make build's configuration: its packages are compiled already
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("go build %s: %w", pkg, err)
	}
	defer os.Remove(exe)
	out, err := exec.Command("go", "tool", "nm", "-size", exe).Output()
	if err != nil {
		return nil, fmt.Errorf("go tool nm: %w", err)
	}
	sizes := map[string]int64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 {
			continue
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		sizes[symbolPackage(strings.Join(f[3:], " "), known)] += n
	}
	return sizes, nil
}

// symbolPackage is the package a symbol belongs to: the longest known
// import path its name starts with ("(runtime)" when none).
func symbolPackage(name string, known map[string][]string) string {
	for _, prefix := range []string{"type:*", "type:", "go:itab.*", "go:itab.", "go:"} {
		name = strings.TrimPrefix(name, prefix)
	}
	name, _, _ = strings.Cut(name, ",") // an itab: the type, then the interface
	name = strings.TrimLeft(name, "*[]()")
	slash := strings.LastIndexByte(name, '/')
	dot := strings.IndexByte(name[slash+1:], '.')
	if dot < 0 {
		return "(runtime)"
	}
	p := name[:slash+1+dot]
	if _, ok := known[p]; ok {
		return p
	}
	return "(runtime)"
}
