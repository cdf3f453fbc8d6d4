package gittest

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
)

func TestServer(t *testing.T) {
	srv := NewServer(t, Options{})
	repo := srv.NewRepo("org/repo")
	c1 := repo.Commit("one", map[string]string{"a/b.txt": "b"})
	repo.Tag("v1", c1)
	c2 := repo.Commit("two", map[string]string{"a/b.txt": "b2"})
	if c1 == c2 || repo.Rev("v1") != c1 || repo.Rev("main") != c2 {
		t.Fatalf("commits: c1 %s c2 %s v1 %s main %s", c1, c2, repo.Rev("v1"), repo.Rev("main"))
	}
	repo.Branch("main", c1)
	if repo.Rev("main") != c1 {
		t.Errorf("Branch did not move main")
	}

	get := func(user, pass string) int {
		req, _ := http.NewRequest(http.MethodGet, repo.URL()+"/info/refs?service=git-upload-pack", nil)
		if user != "" {
			req.SetBasicAuth(user, pass)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := get("", ""); code != http.StatusOK {
		t.Errorf("GET info/refs: %d, want 200", code)
	}
	srv.RequireAuth("u", "p")
	if code := get("", ""); code != http.StatusUnauthorized {
		t.Errorf("GET info/refs without auth: %d, want 401", code)
	}
	if code := get("u", "p"); code != http.StatusOK {
		t.Errorf("GET info/refs with auth: %d, want 200", code)
	}
	if n, m := srv.Requests(), srv.RequestsFor("org/repo"); n != 3 || m != 3 {
		t.Errorf("Requests() = %d, RequestsFor = %d, want 3", n, m)
	}
	if f := srv.Fetches(); f != 0 {
		t.Errorf("Fetches() = %d, want 0", f)
	}
	srv.Reset()
	if n := srv.Requests(); n != 0 {
		t.Errorf("Requests() after Reset = %d", n)
	}
}

func TestStallAndAuthorization(t *testing.T) {
	srv := NewServer(t, Options{})
	repo := srv.NewRepo("org/repo")
	repo.Commit("one", nil)
	req, _ := http.NewRequest(http.MethodGet, repo.URL()+"/info/refs?service=git-upload-pack", nil)
	req.SetBasicAuth("u", "p")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if log := srv.Log(); len(log) != 1 || log[0].Authorization != "Basic dTpw" {
		t.Errorf("Log() = %+v, want one request with its Authorization header", log)
	}
	srv.Stall(true)
	c := &http.Client{Timeout: 300 * time.Millisecond}
	start := time.Now()
	if _, err := c.Get(repo.URL() + "/info/refs?service=git-upload-pack"); err == nil {
		t.Error("a stalled server answered")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("the client waited %s", took)
	}
	srv.Stall(false)
	if resp, err := http.Get(repo.URL() + "/info/refs?service=git-upload-pack"); err != nil || resp.StatusCode != 200 {
		t.Errorf("after Stall(false): %v", err)
	}
}

func TestHostileObjects(t *testing.T) {
	srv := NewServer(t, Options{})
	repo := srv.NewRepo("org/repo")
	repo.Commit("one", map[string]string{"a.txt": "a"})
	c := repo.CommitEntry("bomb", "bomb", "040000", repo.WideTree(10, 3))
	if n := strings.Count(repo.Git("ls-tree", "-r", c), "\n") + 1; n != 1001 {
		t.Errorf("the wide tree has %d files, want 1000 and a.txt", n)
	}
	id := repo.LooseZeros("blob", 3<<20)
	repo.CommitEntry("zeros", "zeros", "100644", id)
	if size := repo.Git("cat-file", "-s", "HEAD:zeros"); size != "3145728" {
		t.Errorf("zeros has %s bytes", size)
	}
	repo.Git("fsck", "--no-progress")
}

// TestStallFetchesTrickle: StallFetches serves the ref advertisement and
// hangs the pack transfer; with Trickle the hung answer is a 200 whose
// body keeps coming, a byte at a time, and never ends.
func TestStallFetchesTrickle(t *testing.T) {
	srv := NewServer(t, Options{Trickle: 20 * time.Millisecond})
	repo := srv.NewRepo("org/repo")
	repo.Commit("one", nil)
	srv.StallFetches(true)
	resp, err := http.Get(repo.URL() + "/info/refs?service=git-upload-pack")
	assert.NilError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.NilError(t, err)
	assert.Check(t, strings.Contains(string(body), "refs/heads/main"), "the advertisement: %q", body)

	c := &http.Client{Timeout: 300 * time.Millisecond}
	resp, err = c.Post(repo.URL()+"/git-upload-pack", "application/x-git-upload-pack-request", strings.NewReader("0000"))
	assert.NilError(t, err)
	assert.Equal(t, resp.StatusCode, http.StatusOK)
	got, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Check(t, err != nil, "the stalled fetch ended")
	assert.Check(t, len(got) > len("fff0")+2 && strings.HasPrefix(string(got), "fff0x"), "trickled %q", got)
	assert.Equal(t, srv.Fetches(), 1)
}
