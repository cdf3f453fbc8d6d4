package kudotest

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/kube/versions"
	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

var (
	actionLine = regexp.MustCompile(`# action=(\S+) template=(\S+)`)
	pipeLine   = regexp.MustCompile(`(?m)^# pipe (\S+) -> (\S+)$`)
)

// RefObject is one object of a kudo-reference file of the corpus: the
// action and template of its "# action=<apply|delete|pipe-pod>
// template=<file>" line, and the object as KUDO's engine rendered it.
type RefObject struct {
	Action, Template string
	Obj              map[string]any
}

// ReadReference reads a kudo-reference file as it is written: every
// object with its action and template. An error reading the file is an
// *fs.PathError.
func ReadReference(file string) ([]RefObject, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var out []RefObject
	for _, d := range strings.Split(string(data), "\n---\n") {
		m := actionLine.FindStringSubmatch(d)
		if m == nil {
			continue
		}
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(d), &obj); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		out = append(out, RefObject{Action: m[1], Template: m[2], Obj: obj})
	}
	return out, nil
}

// Reference reads what KUDO's own engine rendered for a plan (a
// kudo-reference file of the corpus: "# action=apply|delete" before each
// object) and returns what KUDO's controller left on a cluster once the
// plan ran: the objects applied and not deleted by a later step, with
// kudo.dev/dependencies-hash as the controller computed it once the
// ConfigMaps and Secrets of earlier steps were applied (the file has
// all-zero digests: nothing was applied), in the API versions a current
// cluster serves them in (it converts stored objects: policy/v1beta1 is
// read as policy/v1). The Secrets and ConfigMaps KUDO's pipe tasks made
// ("# pipe <key> -> <name>" lines; their kinds and files are those of the
// package in pkgDir) come last, as KUDO made them: the file's base name as
// data key, KUDO's labels.
func Reference(t testing.TB, file, pkgDir string) []map[string]any {
	t.Helper()
	refs, err := ReadReference(file)
	if err != nil {
		t.Fatal(err)
	}
	deleted := map[string]bool{}
	for _, r := range refs {
		if r.Action == "delete" {
			deleted[object.New(r.Obj).Key()] = true
		}
	}
	var objs []*object.Object
	for _, r := range refs {
		if o := object.New(r.Obj); r.Action == "apply" && !deleted[o.Key()] {
			objs = append(objs, o)
		}
	}
	if err := enhance.DependenciesHash(objs); err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, o := range objs {
		if _, err := versions.Convert(o, kubeversion.Default); err != nil {
			t.Fatalf("%s: %s: %v", file, o.Key(), err)
		}
		out = append(out, o.Map)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return append(out, pipeArtifacts(t, string(data), pkgDir, objs)...)
}

// pipeArtifacts are the objects KUDO made of the files of pipe tasks.
func pipeArtifacts(t testing.TB, reference, pkgDir string, objs []*object.Object) []map[string]any {
	lines := pipeLine.FindAllStringSubmatch(reference, -1)
	if len(lines) == 0 {
		return nil
	}
	var op struct {
		Tasks []struct {
			Spec struct {
				Pipe []struct{ File, Kind, Key string } `json:"pipe"`
			} `json:"spec"`
		} `json:"tasks"`
	}
	data, err := os.ReadFile(pkgDir + "/operator.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &op); err != nil {
		t.Fatal(err)
	}
	labels := objs[0].MapAt("metadata", "labels")
	var out []map[string]any
	for _, l := range lines {
		for _, task := range op.Tasks {
			for _, pf := range task.Spec.Pipe {
				if pf.Key != l[1] {
					continue
				}
				md := map[string]any{"name": l[2], "namespace": objs[0].Namespace(), "labels": map[string]any{
					"heritage": "kudo", "kudo.dev/operator": labels["kudo.dev/operator"], "kudo.dev/instance": labels["kudo.dev/instance"]}}
				key := path.Base(pf.File)
				obj := map[string]any{"apiVersion": "v1", "kind": pf.Kind, "metadata": md}
				if pf.Kind == "Secret" {
					obj["type"], obj["data"] = "Opaque", map[string]any{key: "a3VkbyBtYWRlIHRoaXM="}
				} else {
					obj["binaryData"] = map[string]any{key: "a3VkbyBtYWRlIHRoaXM="}
				}
				out = append(out, obj)
			}
		}
	}
	return out
}
