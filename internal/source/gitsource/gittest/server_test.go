package gittest

import (
	"net/http"
	"testing"
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
