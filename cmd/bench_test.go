package cmd

import (
	"testing"
)

// BenchmarkRenderKEP0012Local renders the KEP-0012 example with its base
// from the local folder.
func BenchmarkRenderKEP0012Local(b *testing.B) {
	for b.Loop() {
		if _, _, err := run("render", "../examples/mysql-extension/render.yaml", "--plan", "backup"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderKEP0012WarmCache renders it with its base from git,
// pinned and already in the cache (no request reaches the server).
func BenchmarkRenderKEP0012WarmCache(b *testing.B) {
	srv, _, cfg := gitBaseB(b)
	cache := b.TempDir()
	flags := []string{"--allow-insecure-http", "--cache-dir", cache}
	if _, _, err := run(append([]string{"lock", cfg}, flags...)...); err != nil {
		b.Fatal(err)
	}
	if _, _, err := run(append([]string{"render", cfg}, flags...)...); err != nil {
		b.Fatal(err)
	}
	srv.Reset()
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := run(append([]string{"render", cfg}, flags...)...); err != nil {
			b.Fatal(err)
		}
	}
	if srv.Requests() != 0 {
		b.Fatalf("%d requests with a warm cache", srv.Requests())
	}
}
