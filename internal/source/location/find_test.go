package location_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/source/location"
)

// TestFindLayouts: a repository is looked up as <framework>/<version>/,
// <framework>/ with that version, and as kudobuilder/operators lays out
// its repository/ folder, where KUDO users keep their packages:
// <framework>/operator/ and <framework>/<app version>/operator/ (issue
// 33: such a checkout found nothing).
func TestFindLayouts(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, name, version string) {
		p := filepath.Join(dir, "repo", rel)
		assert.NilError(t, os.MkdirAll(p, 0o755))
		assert.NilError(t, os.WriteFile(filepath.Join(p, "operator.yaml"), []byte("name: "+name+"\noperatorVersion: \""+version+"\"\n"), 0o644))
	}
	write("zookeeper/0.3.3", "zookeeper", "0.3.3")
	write("redis", "redis", "0.2.0")
	write("kafka/operator", "kafka", "1.3.3")
	write("cassandra/3.11/operator", "cassandra", "1.0.1")
	write("cassandra/4.0/operator", "cassandra", "1.1.0")
	s := &location.Sources{Confine: dir, Repositories: []location.Repository{{Name: "community", Location: location.Local{Dir: filepath.Join(dir, "repo"), Confine: dir}}}}
	cases := map[string]struct {
		reason, name, version, want string
	}{
		"Versioned":     {reason: "<framework>/<version>/", name: "zookeeper", version: "0.3.3", want: "zookeeper/0.3.3"},
		"Flat":          {reason: "<framework>/ with that version", name: "redis", version: "0.2.0", want: "redis"},
		"Operator":      {reason: "kudobuilder's <framework>/operator/", name: "kafka", version: "1.3.3", want: "kafka/operator"},
		"AppVersion":    {reason: "kudobuilder's <framework>/<app version>/operator/, by the operator version", name: "cassandra", version: "1.1.0", want: "cassandra/4.0/operator"},
		"AppVersionOld": {reason: "the other app version", name: "cassandra", version: "1.0.1", want: "cassandra/3.11/operator"},
		"AnyVersion":    {reason: "no version asked: the first in that order", name: "kafka", want: "kafka/operator"},
		"WrongVersion":  {reason: "a package of another version is not it", name: "kafka", version: "1.2.0"},
		"FlatWrong":     {reason: "<framework>/ of another version is not it", name: "redis", version: "0.1.0"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			loc, err := s.Find(context.Background(), tc.name, tc.version)
			if tc.want == "" {
				assert.Check(t, err != nil && strings.Contains(err.Error(), "<framework>/operator/"), "%s: %v", tc.reason, err)
				return
			}
			assert.NilError(t, err, tc.reason)
			rel, _ := filepath.Rel(filepath.Join(dir, "repo"), loc.String())
			assert.Check(t, is.Equal(filepath.ToSlash(rel), tc.want), tc.reason)
		})
	}
}
