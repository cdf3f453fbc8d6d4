package bundle

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestRemote: the kinds of remote source are Remote's fields; a place
// that embeds Remote reads them inline, lists the sources it sets, and
// takes a pinned copy back.
func TestRemote(t *testing.T) {
	if got := OneOf("path"); got != "path, git or oci" {
		t.Errorf("OneOf(path) = %q", got)
	}
	var ext Extends
	if err := yaml.Unmarshal([]byte("git: {url: https://git.example/b.git, ref: main, path: base}\n"), &ext); err != nil {
		t.Fatal(err)
	}
	srcs := ext.Sources()
	if len(srcs) != 1 || srcs[0].SourceKind() != "git" || srcs[0].SourcePath() != "base" {
		t.Fatalf("Sources() = %#v", srcs)
	}
	if err := ext.Set(srcs[0].WithPin("abc")); err != nil {
		t.Fatal(err)
	}
	if ext.Git == nil || ext.Git.Commit != "abc" || ext.Source().SourcePin() != "abc" {
		t.Errorf("Set did not pin: %#v", ext.Git)
	}
	if err := (GitSource{}).Check(); err == nil || err.Error() != "url: is required" {
		t.Errorf("Check() = %v", err)
	}
}
