package cmd

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/source/gitsource"
	"github.com/kudo-render/kudo-render/internal/source/location"
	"github.com/kudo-render/kudo-render/internal/source/oci"
)

// gitFlags are the root command's flags for git sources.
type gitFlags struct {
	offline, insecureHTTP, allowLocal, verifyPins bool
	cacheDir                                      string
	// limits are the run's limits, resolved before a command runs.
	limits *limits.Limits
	// deadline, when the watchdog runs, is when operations that wait on a
	// server give up by themselves (watchdogMargin before it); zero
	// otherwise.
	deadline time.Time
	// fetcherOnce makes the run's one git fetcher (fetcher), so that all
	// of the run's git operations share its time bound.
	fetcherOnce sync.Once
	gitFetcher  gitsource.Fetcher
	fetcherErr  error
}

func (g *gitFlags) register(c *cobra.Command) {
	c.PersistentFlags().BoolVar(&g.offline, "offline", false, "use the git and OCI caches only; fail naming any source that is not cached")
	c.PersistentFlags().StringVar(&g.cacheDir, "cache-dir", "", "git cache folder, OCI artifacts in its oci/ (env KUDO_RENDER_CACHE; default $XDG_CACHE_HOME/kudo-render/git and .../oci)")
	c.PersistentFlags().BoolVar(&g.insecureHTTP, "allow-insecure-http", false, "allow http:// git URLs (tests, local work)")
	c.PersistentFlags().BoolVar(&g.allowLocal, "allow-local", false, "allow file:// and local-path git URLs")
	c.PersistentFlags().BoolVar(&g.verifyPins, "verify-pins", false, "fail when a pinned commit is no longer contained in its ref")
}

// sources connects the config's git locations to package gitsource. The
// fetcher is made on first use, so renders without git need no cache
// folder. Credentials from the environment go only to the hosts of
// KUDO_RENDER_GIT_HOSTS, whatever hosts the config or its bases name.
func (g *gitFlags) sources(stderr io.Writer, cfg *config.Config) runner.Sources {
	fetcher := func() (gitsource.Fetcher, error) { return g.fetcher(stderr) }
	opts := gitsource.KindOptions{VerifyPins: g.verifyPins}
	if g.allowLocal {
		opts.LocalBase = cfg.Dir
	}
	return runner.Sources{Kinds: location.Kinds{
		"git": gitsource.NewKind(fetcher, opts),
		"oci": oci.NewKind(g.ociSource(stderr, cfg)),
	}}
}

// ociSource makes the OCI source on first use: the cache below the git
// cache folder's (--cache-dir, KUDO_RENDER_CACHE) or its own default, the
// environment's credentials only for the registries KUDO_RENDER_OCI_HOSTS
// lists, whatever registries the config or its bases name.
func (g *gitFlags) ociSource(stderr io.Writer, cfg *config.Config) func() (*oci.Source, error) {
	var once sync.Once
	var src *oci.Source
	var err error
	return func() (*oci.Source, error) {
		once.Do(func() {
			dir := g.cacheDir
			if dir == "" {
				dir = os.Getenv(gitsource.EnvCache)
			}
			if dir, err = oci.DefaultCacheDir(dir); err != nil {
				return
			}
			creds, cerr := oci.Credentials(os.Getenv)
			if cerr != nil {
				err = cerr
				return
			}
			src, err = oci.New(oci.Options{CacheDir: dir, Offline: g.offline, Credentials: creds, Warn: warner(stderr), BaseDir: cfg.Dir, Confine: cfg.ConfineDir(), Deadline: g.deadline})
		})
		return src, err
	}
}

// fetcher is the run's git fetcher, made on first use: credentials from
// the environment, the cache folder from --cache-dir or
// KUDO_RENDER_CACHE. There is one per run, whatever the number of
// configs it loads (diff's two sides, the KRM function's items), so that
// all of the run's git operations share one --git-timeout, which never
// runs past the run's deadline.
func (g *gitFlags) fetcher(stderr io.Writer) (gitsource.Fetcher, error) {
	g.fetcherOnce.Do(func() {
		dir := g.cacheDir
		if dir == "" {
			dir = os.Getenv(gitsource.EnvCache)
		}
		g.gitFetcher, g.fetcherErr = gitsource.New(gitsource.Options{
			CacheDir: dir, Offline: g.offline, AllowInsecureHTTP: g.insecureHTTP, AllowLocal: g.allowLocal,
			Warn: warner(stderr), Progress: progress(stderr), Deadline: g.deadline,
		})
	})
	return g.gitFetcher, g.fetcherErr
}
