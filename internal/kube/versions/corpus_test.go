package versions

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/test/testcorpus"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestCorpus converts every object KUDO rendered for the packages of the
// corpus (kudo-reference/): for KUDO's own target, 1.16, every object
// stays as written; for Default, every object of a removed API version
// (their policy/v1beta1 PodDisruptionBudgets) converts, and keeps every
// field as written but its API version.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testcorpus.Dir(t), "kudo-reference", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no reference renders: %v", err)
	}
	converted := 0
	for _, f := range files {
		for i, m := range readStream(t, f) {
			in := deepCopyMap(m)
			o := object.New(m)
			if d, err := Convert(o, kubeversion.Version{Major: 1, Minor: 16}); d != nil || err != nil || !reflect.DeepEqual(o.Map, in) {
				t.Errorf("%s #%d, for 1.16: %v, %v", filepath.Base(f), i, d, err)
			}
			d, err := Convert(o, kubeversion.Default)
			if err != nil {
				t.Errorf("%s #%d: %v", filepath.Base(f), i, err)
				continue
			}
			if d == nil {
				continue
			}
			converted++
			checkOutput(t, o, kubeversion.Default)
			o.Map["apiVersion"] = in["apiVersion"]
			if diff := cmpMaps(in, o.Map); diff != "" {
				t.Errorf("%s #%d: %s differs beyond its API version:\n%s", filepath.Base(f), i, o.Kind(), diff)
			}
		}
	}
	if converted == 0 {
		t.Error("the corpus converted nothing: its PodDisruptionBudgets are policy/v1beta1")
	}
	t.Logf("%d objects converted", converted)
}

// readStream decodes the objects of a YAML stream.
func readStream(t *testing.T, file string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	d := yaml.NewDecoder(bytes.NewReader(b))
	for {
		var x any
		if err := d.Decode(&x); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if m, ok := plainYAML(x).(map[string]any); ok {
			out = append(out, m)
		}
	}
}

func cmpMaps(a, b map[string]any) string {
	var ds []difference
	differences(a, b, nil, &ds)
	s := ""
	for _, d := range ds {
		s += d.at.String() + ": " + show(d.a) + " -> " + show(d.b) + "\n"
	}
	return s
}
