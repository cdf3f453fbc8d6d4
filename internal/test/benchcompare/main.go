package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	bin := flag.String("bin", "bin/kudo-render", "the kudo-render binary")
	corpus := flag.String("corpus", "../shared/corpus", "the corpus folder (kudo-operators/kafka, zookeeper)")
	out := flag.String("out", "bench-out", "folder for the inputs, the table and the plot")
	runs := flag.Int("runs", 11, "runs per command of the fast rows (the slow ones: a third)")
	flag.Parse()
	if err := run(*bin, *corpus, *out, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

func run(bin, corpus, out string, runs int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	helm, err := ensureHelm()
	if err != nil {
		return err
	}
	ops := filepath.Join(corpus, "kudo-operators")
	var rows []row
	r, err := kafkaRow(bin, helm, ops, out, runs)
	if err != nil {
		return err
	}
	rows = append(rows, r, startupRow(bin, helm, runs))
	scaling, err := scalingRows(bin, ops, out, max(3, runs/3))
	if err != nil {
		return err
	}
	rows = append(rows, scaling...)
	more, err := bulkRows(bin, out, max(3, runs/3))
	if err != nil {
		return err
	}
	rows = append(rows, more...)
	table := markdown(rows)
	fmt.Print(table)
	if err := os.WriteFile(filepath.Join(out, "table.md"), []byte(table), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "scaling.svg"), []byte(plot(scaling)), 0o644)
}
