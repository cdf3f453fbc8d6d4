package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// helms are the Helm versions compared with, oldest first.
var helms = []helmVersion{
	{name: "Helm 3.22", module: "helm.sh/helm/v3/cmd/helm", version: "v3.22.0"},
	{name: "Helm 4.3", module: "helm.sh/helm/v4/cmd/helm", version: "v4.3.1"},
}

func main() {
	bin := flag.String("bin", "bin/kudo-render", "the kudo-render binary")
	base := flag.String("base", "", "another kudo-render binary (an older commit's build) to measure in the same rounds")
	corpus := flag.String("corpus", "../shared/corpus", "the corpus folder (kudo-operators/kafka, zookeeper)")
	out := flag.String("out", "bench-out", "folder for the inputs, the table and the plot")
	runs := flag.Int("runs", 11, "runs per command of the fast rows (the slow ones: a third)")
	only := flag.String("rows", "", "measure only the rows whose name matches this regular expression")
	flag.Parse()
	filter, err := regexp.Compile(*only)
	if err != nil {
		fmt.Fprintln(os.Stderr, "error: -rows:", err)
		os.Exit(2)
	}
	if err := run(config{bin: *bin, base: *base, corpus: *corpus, out: *out, runs: *runs, only: filter}); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

// config is what a run measures, and where.
type config struct {
	bin, base   string
	corpus, out string
	runs        int
	only        *regexp.Regexp
	helm        []string // the binaries of helms, in order, once a row needs them
}

func run(c config) error {
	var err error
	if c.bin, err = filepath.Abs(c.bin); err != nil {
		return err
	}
	if c.base != "" {
		if c.base, err = filepath.Abs(c.base); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	rows, scaling, err := measureAll(&c)
	if err != nil {
		return err
	}
	table := markdown(c, rows)
	fmt.Print(table)
	if err := os.WriteFile(filepath.Join(c.out, "table.md"), []byte(table), 0o644); err != nil {
		return err
	}
	if len(scaling) == 0 {
		return nil
	}
	return os.WriteFile(filepath.Join(c.out, "scaling.svg"), []byte(plot(scaling)), 0o644)
}
