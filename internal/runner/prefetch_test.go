package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/source/location"
)

const prefetchConfig = `apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: shop-db, namespace: shop}
spec:
  framework:
    git: {url: https://git.example/apps.git, ref: main, commit: 1111111111111111111111111111111111111111, path: mysql-extension}
  base:
    git: {url: https://git.example/bases.git, ref: main, path: mysql}
  plans: [backup]
  lock:
    pins:
    - {url: https://git.example/bases.git, ref: main, commit: 2222222222222222222222222222222222222222}
    - {url: https://git.example/deps.git, ref: v1, commit: 3333333333333333333333333333333333333333}
`

// TestPrefetchConcurrent: the pinned git sources of a config (its own
// and the lock's pins) are fetched at the same time before the load walks
// the chain; the load then opens them again (from the cache, in real
// use) and succeeds. Without the prefetch, the first open waits for the
// others and fails.
func TestPrefetchConcurrent(t *testing.T) {
	cfg, err := config.Parse("render.yaml", t.TempDir(), []byte(prefetchConfig))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var opened []string
	all := make(chan struct{})
	open := func(ctx context.Context, s bundle.Source) (*location.Opened, error) {
		gs := s.(bundle.GitSource)
		mu.Lock()
		opened = append(opened, filepath.Base(gs.URL)+"@"+gs.Commit[:1])
		if len(opened) == 3 {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all: // every fetch has started before any ends
		case <-time.After(10 * time.Second):
			return nil, errors.New("the pinned sources were fetched one after another")
		}
		return location.NewOpened(os.DirFS(filepath.Join("../../examples", gs.Path)), gs.URL+"@"+gs.Commit+":"+gs.Path, gs.Commit, true, nil), nil
	}
	if _, err := New(cfg, Sources{Kinds: location.Kinds{"git": openKind(open)}}).Request(context.Background()); err != nil {
		t.Fatal(err)
	}
	slices.Sort(opened[:3])
	want := []string{"apps.git@1", "bases.git@2", "deps.git@3"}
	assert.Check(t, is.DeepEqual(want, opened[:3]), "prefetched")
	if len(opened) != 5 { // then the load: the framework and its base
		t.Errorf("opened %v; want the 3 prefetches, then the framework and the base", opened)
	}
}

// openKind is a location.Kind that only opens, with open; the config's
// pins are applied before (location.Sources.Pin).
type openKind func(ctx context.Context, s bundle.Source) (*location.Opened, error)

func (k openKind) Open(ctx context.Context, s bundle.Source) (*location.Opened, error) {
	return k(ctx, s)
}

func (openKind) Resolve(context.Context, bundle.Source) (string, error) {
	return "", errors.New("not resolvable")
}

func (openKind) Contains(context.Context, bundle.Source, string) (bool, error) {
	return false, errors.New("not resolvable")
}

func (openKind) Describe(s bundle.Source) string { return s.SourceURL() }

// TestPinnedSources: one source per URL and commit, the config's own
// (pinned by commit: or by a lock pin) first, unpinned refs left out.
func TestPinnedSources(t *testing.T) {
	cfg, err := config.Parse("render.yaml", t.TempDir(), []byte(prefetchConfig+"  repositories:\n  - {name: r, git: {url: https://git.example/unpinned.git, ref: main}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range pinnedSources(cfg) {
		got = append(got, filepath.Base(s.SourceURL())+"@"+s.SourcePin()[:1]+":"+s.SourcePath())
	}
	want := []string{"bases.git@2:mysql", "apps.git@1:mysql-extension", "deps.git@3:"}
	assert.Check(t, is.DeepEqual(want, got))
}

// TestPinnedSourcesBounded: a lock listing many pins (commits of one
// repository the render may never read) costs at most prefetchMax
// fetches before the load; a pin after the first of its URL and ref,
// which PinFor never reads, none.
func TestPinnedSourcesBounded(t *testing.T) {
	text := prefetchConfig + "    - {url: https://git.example/deps.git, ref: v1, commit: 4444444444444444444444444444444444444444}\n"
	for i := range 100 {
		text += fmt.Sprintf("    - {url: https://git.example/junk.git, ref: b%d, commit: %040d}\n", i, i)
	}
	cfg, err := config.Parse("render.yaml", t.TempDir(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	srcs := pinnedSources(cfg)
	if len(srcs) != prefetchMax {
		t.Fatalf("%d sources prefetched, want %d", len(srcs), prefetchMax)
	}
	for _, gs := range srcs[:3] {
		if strings.Contains(gs.SourceURL(), "junk") {
			t.Errorf("the config's own sources and the first pins come first: %v", srcs[:3])
		}
	}
	for _, gs := range srcs {
		if gs.SourcePin() == strings.Repeat("4", 40) {
			t.Error("a second pin of deps.git@v1, which PinFor never reads, was prefetched")
		}
	}
}
