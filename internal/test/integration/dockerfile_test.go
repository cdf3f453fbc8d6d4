package integration

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDockerfile checks what the image promises, since no Docker engine
// runs here to build it: a multi-stage build of a static binary
// (CGO_ENABLED=0) onto distroless or scratch, a non-root user, and the
// binary itself as entrypoint (without arguments it is the KRM function).
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile("../../../internal/image/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	froms := regexp.MustCompile(`(?m)^FROM\s+(\S+)`).FindAllStringSubmatch(text, -1)
	if len(froms) < 2 {
		t.Fatalf("not a multi-stage build: %v", froms)
	}
	final := froms[len(froms)-1][1]
	if !strings.HasPrefix(final, "gcr.io/distroless/static") && final != "scratch" {
		t.Errorf("final stage %s is neither distroless static nor scratch", final)
	}
	for _, want := range []string{"CGO_ENABLED=0", "GOTOOLCHAIN=local", `ENTRYPOINT ["/usr/local/bin/kudo-render"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("Dockerfile lacks %q", want)
		}
	}
	user := regexp.MustCompile(`(?m)^USER\s+(\S+)`).FindAllStringSubmatch(text, -1)
	if len(user) == 0 || strings.HasPrefix(user[len(user)-1][1], "0") || user[len(user)-1][1] == "root" {
		t.Errorf("the image does not run as non-root: %v", user)
	}
	goMod, _ := os.ReadFile("../../../go.mod")
	if m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(goMod)); m == nil || !strings.Contains(text, "golang:"+m[1]) {
		t.Errorf("the build image does not match go.mod's go %v", m)
	}
}
