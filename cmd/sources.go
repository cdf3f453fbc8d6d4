package cmd

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/extend"
	"github.com/kudo-render/kudo-render/fn"
	"github.com/kudo-render/kudo-render/source"
)

// gitFlags are the root command's flags for git sources.
type gitFlags struct {
	offline, insecureHTTP, allowLocal, verifyPins bool
	cacheDir                                      string
}

func (g *gitFlags) register(c *cobra.Command) {
	c.PersistentFlags().BoolVar(&g.offline, "offline", false, "use the git cache only; fail naming any source that is not cached")
	c.PersistentFlags().StringVar(&g.cacheDir, "cache-dir", "", "git cache folder (env KUDO_RENDER_CACHE; default $XDG_CACHE_HOME/kudo-render/git)")
	c.PersistentFlags().BoolVar(&g.insecureHTTP, "allow-insecure-http", false, "allow http:// git URLs (tests, local work)")
	c.PersistentFlags().BoolVar(&g.allowLocal, "allow-local", false, "allow file:// and local-path git URLs")
	c.PersistentFlags().BoolVar(&g.verifyPins, "verify-pins", false, "fail when a pinned commit is no longer contained in its ref")
}

// sources connects extends, repositories and framework git locations to
// package source. The fetcher is made on first use, so renders without git
// need no cache folder. Credentials from the environment go only to the
// hosts of the config's own git URLs unless KUDO_RENDER_GIT_HOSTS says
// otherwise: a base's own extends must not receive them.
func (g *gitFlags) sources(stderr io.Writer, cfg *fn.Config) fn.Sources {
	var once sync.Once
	var f source.Fetcher
	var ferr error
	fetcher := func() (source.Fetcher, error) {
		once.Do(func() { f, ferr = g.fetcher(stderr, cfg) })
		return f, ferr
	}
	return fn.Sources{OpenGit: func(ctx context.Context, gs bundle.GitSource) (extend.Opened, error) {
		f, err := fetcher()
		if err != nil {
			return extend.Opened{}, err
		}
		ref := source.Ref{URL: gs.URL, Ref: gs.Ref, Commit: cfg.PinFor(gs), Path: gs.Path}
		if g.verifyPins && ref.Commit != "" && ref.Ref != "" {
			ok, err := f.Contains(ctx, source.Ref{URL: ref.URL, Ref: ref.Ref}, ref.Commit)
			if err != nil {
				return extend.Opened{}, err
			}
			if !ok {
				return extend.Opened{}, fmt.Errorf("%s: %s no longer contains the pinned commit %s", source.Scrub(ref.URL), ref.Ref, ref.Commit)
			}
		}
		if g.allowLocal && !strings.Contains(gs.URL, "://") && !filepath.IsAbs(gs.URL) && cfg != nil {
			if _, err := os.Stat(filepath.Join(cfg.Dir, gs.URL)); err == nil {
				ref.URL, _ = filepath.Abs(filepath.Join(cfg.Dir, gs.URL))
			}
		}
		fsys, res, err := f.Open(ctx, ref)
		if err != nil {
			return extend.Opened{}, err
		}
		return extend.Opened{FS: fsys, ID: res.URL + "@" + res.Commit + ":" + res.Path, Commit: res.Commit}, nil
	}}
}

// fetcher makes the git fetcher: credentials from the environment, the
// cache folder from --cache-dir or KUDO_RENDER_CACHE.
func (g *gitFlags) fetcher(stderr io.Writer, cfg *fn.Config) (source.Fetcher, error) {
	auth, err := source.AuthFromEnv(os.Getenv)
	if err != nil {
		return nil, err
	}
	if auth != nil && len(auth.Hosts) == 0 && cfg != nil {
		auth.Hosts = configHosts(cfg)
	}
	dir := g.cacheDir
	if dir == "" {
		dir = os.Getenv("KUDO_RENDER_CACHE")
	}
	return source.New(source.Options{
		CacheDir: dir, Offline: g.offline, AllowInsecureHTTP: g.insecureHTTP, AllowLocal: g.allowLocal,
		Auth: auth, Warn: warner(stderr),
	})
}

func dirOf(p string) string { return filepath.Dir(p) }

// configHosts are the hosts of the git URLs a FunctionConfig names itself.
func configHosts(cfg *fn.Config) []string {
	var urls []string
	if g := cfg.Spec.Framework.Git; g != nil {
		urls = append(urls, g.URL)
	}
	if b := cfg.Spec.Base; b != nil && b.Git != nil {
		urls = append(urls, b.Git.URL)
	}
	for _, r := range cfg.Spec.Repositories {
		if r.Git != nil {
			urls = append(urls, r.Git.URL)
		}
	}
	var hosts []string
	for _, u := range urls {
		if p, err := url.Parse(u); err == nil && p.Host != "" {
			hosts = append(hosts, p.Hostname())
		} else if at := strings.Index(u, "@"); at >= 0 { // scp-like git@host:org/repo
			if colon := strings.Index(u[at:], ":"); colon > 0 {
				hosts = append(hosts, u[at+1:at+colon])
			}
		}
	}
	if len(hosts) == 0 {
		hosts = []string{"\x00none"} // credentials go nowhere
	}
	return hosts
}
