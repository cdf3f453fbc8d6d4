package kudotest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// Instance is an Instance to export.
type Instance struct {
	Name   string
	Params map[string]string
	// Parent is the owner Instance, for a KudoOperator child.
	Parent string
}

// Export returns what `kubectl get instances,operatorversions,operators
// -A -o yaml` prints after `kubectl kudo install` of the package in dir
// into namespace ns for each instance: an Operator, an OperatorVersion
// holding the package (parameters converted as kudoctl converts them) and
// the Instances.
func Export(t testing.TB, dir, ns string, instances ...Instance) []byte {
	t.Helper()
	items := PackageObjects(t, dir, ns)
	ovName := items[1]["metadata"].(map[string]any)["name"].(string)
	opName := items[0]["metadata"].(map[string]any)["name"].(string)
	for i, in := range instances {
		items = append(items, InstanceObject(i, in, ns, opName, ovName))
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// PackageObjects are the Operator and the OperatorVersion of the package
// in dir as kubectl kudo install creates them in namespace ns.
func PackageObjects(t testing.TB, dir, ns string) []map[string]any {
	var op map[string]any
	readYAML(t, filepath.Join(dir, "operator.yaml"), &op)
	var pf struct {
		Parameters []map[string]any `yaml:"parameters"`
	}
	readYAML(t, filepath.Join(dir, "params.yaml"), &pf)
	name, version, app := fmt.Sprint(op["name"]), fmt.Sprint(op["operatorVersion"]), op["appVersion"]
	ovName := name + "-" + version
	if app != nil {
		ovName = fmt.Sprintf("%s-%v-%s", name, app, version)
	}
	operator := map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "Operator",
		"metadata": map[string]any{"name": name, "namespace": ns, "uid": "0a1b2c3d-0000-4000-8000-000000000001", "resourceVersion": "1001"},
		"spec":     pick(op, "description", "kudoVersion", "kubernetesVersion", "maintainers", "url")}
	spec := map[string]any{"operator": map[string]any{"name": name, "kind": "Operator"}, "version": version,
		"templates": templates(t, dir), "tasks": op["tasks"], "plans": op["plans"], "parameters": ovParams(t, pf.Parameters)}
	if app != nil {
		spec["appVersion"] = fmt.Sprint(app)
	}
	ov := map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "OperatorVersion",
		"metadata": map[string]any{"name": ovName, "namespace": ns, "uid": "0a1b2c3d-0000-4000-8000-000000000002", "resourceVersion": "1002"},
		"spec":     spec, "status": map[string]any{}}
	return []map[string]any{operator, ov}
}

func pick(m map[string]any, keys ...string) map[string]any {
	out := map[string]any{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	return out
}

// ovParams converts params.yaml parameters as kudoctl does: defaults and
// enum values as text, YAML for arrays and maps; type as value-type.
func ovParams(t testing.TB, params []map[string]any) []any {
	var out []any
	for _, p := range params {
		q := pick(p, "name", "displayName", "description", "required", "trigger", "immutable")
		typ, _ := p["type"].(string)
		if typ != "" {
			q["value-type"] = typ
		}
		if d, ok := p["default"]; ok {
			if w := wrap(t, d, typ); w != nil {
				q["default"] = *w
			}
		}
		if e, ok := p["enum"].([]any); ok {
			var ev []any
			for _, v := range e {
				ev = append(ev, *wrap(t, v, typ))
			}
			q["enum"] = ev
		}
		out = append(out, q)
	}
	return out
}

// wrap is kudoctl's WrapParamValue.
func wrap(t testing.TB, v any, typ string) *string {
	if typ == "array" || typ == "map" {
		b, err := sigsyaml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		return &s
	}
	if v == nil {
		return nil
	}
	s := fmt.Sprint(v)
	return &s
}

func templates(t testing.TB, dir string) map[string]any {
	out := map[string]any{}
	base := filepath.Join(dir, "templates")
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(base, p)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// InstanceObject is the i-th Instance of an export, of operator op and
// OperatorVersion ov, with KUDO's finalizer and a completed deploy plan.
func InstanceObject(i int, in Instance, ns, op, ov string) map[string]any {
	meta := map[string]any{"name": in.Name, "namespace": ns, "labels": map[string]any{"kudo.dev/operator": op},
		"uid": fmt.Sprintf("0a1b2c3d-0000-4000-8000-1%011d", i), "resourceVersion": fmt.Sprint(2000 + i),
		"finalizers": []any{"kudo.dev.instance.cleanup"}}
	if in.Parent != "" {
		meta["ownerReferences"] = []any{map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "Instance", "name": in.Parent,
			"uid": "0a1b2c3d-0000-4000-8000-100000000000", "controller": true, "blockOwnerDeletion": true}}
	}
	params := map[string]any{}
	for k, v := range in.Params {
		params[k] = v
	}
	spec := map[string]any{"operatorVersion": map[string]any{"name": ov}}
	if len(params) > 0 {
		spec["parameters"] = params
	}
	return map[string]any{"apiVersion": "kudo.dev/v1beta1", "kind": "Instance", "metadata": meta, "spec": spec,
		"status": map[string]any{"planStatus": map[string]any{"deploy": map[string]any{"name": "deploy", "status": "COMPLETE"}}}}
}

func readYAML(t testing.TB, file string, out any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, out); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}
