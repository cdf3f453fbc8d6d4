// Package gittest serves real git repositories over a loopback smart-HTTP
// server, for tests of code that fetches git sources (package gitsource, the
// extends resolution, the CLI).
//
// The server is `git http-backend` behind [net/http/cgi] on an
// [httptest.Server] bound to 127.0.0.1. It counts every request it receives
// (so a test can assert that a cached source caused no network traffic) and
// can require HTTP basic auth. Repositories are ordinary non-bare repositories
// in t.TempDir(), built with the git binary: tests that use this package are
// skipped when git is not installed.
//
//	srv := gittest.NewServer(t, gittest.Options{})
//	repo := srv.NewRepo("platform/mysql")
//	c1 := repo.Commit("first", map[string]string{"mysql/framework.yaml": "..."})
//	repo.Tag("v1", c1)
//	url := repo.URL() // http://127.0.0.1:PORT/platform/mysql
//	...
//	if n := srv.Fetches(); n != 1 { ... }
//
// Commits use a fixed author and a date that advances one second per commit,
// so the same sequence of calls gives the same commit SHAs on every run.
package gittest
