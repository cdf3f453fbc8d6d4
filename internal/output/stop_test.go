package output

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	"gotest.tools/v3/fs"
)

// stopAfter is a guard that stops the build after n checks, or refuses
// the commit.
type stopAfter struct {
	n, checks int
	refuse    bool
	tmp       string
}

func (g *stopAfter) building(tmp string) { g.tmp = tmp }
func (g *stopAfter) stopped() bool       { g.checks++; return g.checks > g.n }
func (g *stopAfter) commit() bool        { return !g.refuse }

// TestWriteDirStops: a folder write stopped while its tree is built (the
// watchdog, a signal), whether among the files, among the fsyncs or at
// the commit, returns ErrExpired, leaves DIR exactly as it was and
// removes everything it built.
func TestWriteDirStops(t *testing.T) {
	files := map[string][]byte{}
	for i := range 50 {
		files[fmt.Sprintf("ns/app%02d/kudo-render.yaml", i)] = []byte("x\n")
	}
	cases := []struct {
		reason string
		g      *stopAfter
	}{
		{"stopped among the files", &stopAfter{n: 10}},
		{"stopped among the fsyncs of the files", &stopAfter{n: 60}},
		{"stopped among the fsyncs of the folders", &stopAfter{n: 110}},
		{"the commit refused", &stopAfter{n: 1 << 30, refuse: true}},
	}
	for _, c := range cases {
		parent := fs.NewDir(t, "stop", fs.WithDir("out", fs.WithFile("mine.txt", "not kudo-render's")))
		before := fs.ManifestFromDir(t, parent.Path())
		err := writeDir(filepath.Join(parent.Path(), "out"), files, c.g)
		assert.ErrorIs(t, err, ErrExpired, c.reason)
		assert.Assert(t, fs.Equal(parent.Path(), before), c.reason)
		_, statErr := os.Stat(c.g.tmp)
		assert.Assert(t, os.IsNotExist(statErr), "%s: %s was left behind", c.reason, c.g.tmp)
	}
}

// TestWriterExpireWhileBuilding: the watchdog expires a writer whose
// folder is being built: the build stops, what it built is removed, DIR
// stays as it was, and nothing is written afterwards.
func TestWriterExpireWhileBuilding(t *testing.T) {
	parent := fs.NewDir(t, "expire", fs.WithDir("out", fs.WithFile("mine.txt", "not kudo-render's")))
	before := fs.ManifestFromDir(t, parent.Path())
	files := map[string][]byte{}
	for i := range 3000 {
		files[fmt.Sprintf("ns/app%04d/kudo-render.yaml", i)] = []byte("x\n")
	}
	w := NewWriter(nil)
	expired := make(chan bool, 1)
	w.Building = func() func() {
		go func() { // once the tree is being built, as the watchdog would
			for {
				w.mu.Lock()
				tmp := w.tmp
				w.mu.Unlock()
				if tmp != "" {
					expired <- w.Expire()
					return
				}
			}
		}()
		return func() {}
	}
	err := w.WriteDir(filepath.Join(parent.Path(), "out"), files)
	assert.Assert(t, <-expired, "a writer building a folder must expire")
	assert.ErrorIs(t, err, ErrExpired)
	assert.Assert(t, fs.Equal(parent.Path(), before))
	assert.ErrorIs(t, w.WriteDir(filepath.Join(parent.Path(), "out"), files), ErrExpired)
}
