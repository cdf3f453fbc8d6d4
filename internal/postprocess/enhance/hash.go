package enhance

import (
	"cmp"
	"crypto/md5"
	"encoding/base64"
	"fmt"
	"slices"

	yamlv2 "gopkg.in/yaml.v2"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// KUDO v0.19 serialised dependencies with gopkg.in/yaml.v2 v2.3.0, which
// never folds long lines; v2.4.0 folds at 80 columns unless told not to.
// Nothing else in this program links gopkg.in/yaml.v2 (the project's YAML
// goes through go.yaml.in/yaml and sigs.k8s.io/yaml), so the switch, which
// is global to that package, changes only this hash.
func init() { yamlv2.FutureLineWrap() }

type dep struct{ kind, name string }

// DependenciesHash sets kudo.dev/dependencies-hash on the pod templates of
// objs exactly as KUDO v0.19's enhancer did, so that an install KUDO made
// and the same package rendered here carry the same annotation (a
// different one would restart every pod when a GitOps tool takes the
// install over):
//
//   - the dependencies of a pod are its imagePullSecrets and the ConfigMaps
//     and Secrets of its configMap and secret volumes, in that order of
//     kind then name, each as often as it is referenced (KUDO looked no
//     further: envFrom, env valueFrom and projected volumes do not count);
//   - each dependency found among objs (same namespace) is reduced as KUDO
//     reduced it (the fields of its Kubernetes type, annotations, namespace
//     and server fields cleared), written as gopkg.in/yaml.v2 writes a
//     *unstructured.Unstructured and hashed with MD5; one that is not in
//     objs, or that carries kudo.dev/skip-hash-calculation, contributes 16
//     zero bytes;
//   - the annotation is the MD5 of those digests. Pods without dependencies
//     get no annotation.
//
// KUDO read a dependency that another task applied from the cluster (its
// kudo.dev/last-applied-configuration); for an install whose parameters
// have not changed since, that is the object rendered here.
func DependenciesHash(objs []*object.Object) error {
	var index map[string]*object.Object // built when a pod first needs it
	// Each dependency is written and hashed once, however many pods (or
	// volumes) use it, as KUDO's calculator cached it.
	digests := map[*object.Object][md5.Size]byte{}
	for _, o := range objs {
		for _, pt := range podTemplates(o) {
			deps := podDependencies(pt)
			if len(deps) == 0 {
				continue
			}
			if index == nil {
				index = dependencyIndex(objs)
			}
			outer := md5.New()
			for _, d := range deps {
				dobj := index[d.kind+"/"+o.Namespace()+"/"+d.name]
				sum, ok := digests[dobj]
				if !ok {
					var err error
					if sum, err = dependencyDigest(dobj); err != nil {
						return fmt.Errorf("cannot hash %s %q: %w", d.kind, d.name, err)
					}
					digests[dobj] = sum
				}
				outer.Write(sum[:])
			}
			object.SetStrings(pt, map[string]string{AnnDependencies: fmt.Sprintf("%x", outer.Sum(nil))}, "metadata", "annotations")
		}
	}
	return nil
}

// dependencyDigest is KUDO's digest of one dependency: zero bytes for one
// that is absent or skipped.
func dependencyDigest(dobj *object.Object) ([md5.Size]byte, error) {
	if dobj == nil {
		return [md5.Size]byte{}, nil
	}
	if _, skip := dobj.MapAt("metadata", "annotations")[AnnSkipHash]; skip {
		return [md5.Size]byte{}, nil
	}
	// yaml.v2 writes a struct's exported fields under their lower-cased
	// names: Unstructured{Object: m} becomes "object: m".
	data, err := yamlv2.Marshal(map[string]any{"object": hashView(dobj)})
	if err != nil {
		return [md5.Size]byte{}, err
	}
	return md5.Sum(data), nil
}

// dependencyIndex indexes the ConfigMaps and Secrets of objs by kind,
// namespace and name (the last of a name wins).
func dependencyIndex(objs []*object.Object) map[string]*object.Object {
	index := map[string]*object.Object{}
	for _, o := range objs {
		if o.Group() == "" && (o.Kind() == "ConfigMap" || o.Kind() == "Secret") {
			index[o.Kind()+"/"+o.Namespace()+"/"+o.Name()] = o
		}
	}
	return index
}

// typedFields are the top-level fields of the Kubernetes types of
// dependencies: KUDO decoded templates into those types, which drops
// any other field.
var typedFields = map[string][]string{
	"ConfigMap": {"data", "binaryData", "immutable"},
	"Secret":    {"data", "stringData", "type", "immutable"},
}

// hashView is the object KUDO's sanitizeAndSerialize hashed: the typed
// fields, bytes fields in canonical base64, and metadata reduced to the
// name and labels plus what its setters left behind (empty annotations,
// finalizers, managedFields and ownerReferences, zero grace period and
// remaining item count); apiVersion and kind empty.
func hashView(o *object.Object) map[string]any {
	md := map[string]any{
		"annotations":                map[string]any{},
		"deletionGracePeriodSeconds": int64(0),
		"finalizers":                 []any{},
		"managedFields":              []any{},
		"ownerReferences":            []any{},
		"remainingItemCount":         int64(0),
	}
	if name := o.Name(); name != "" {
		md["name"] = name
	}
	if labels, ok := object.Get(o.Map, "metadata", "labels").(map[string]any); ok {
		md["labels"] = labels
	}
	v := map[string]any{"apiVersion": "", "kind": "", "metadata": md}
	for _, f := range typedFields[o.Kind()] {
		x, ok := o.Map[f]
		if !ok || x == nil {
			continue
		}
		if f == "data" && o.Kind() == "Secret" || f == "binaryData" {
			x = canonicalBase64(x)
		}
		v[f] = x
	}
	return v
}

// canonicalBase64 re-encodes the values of a map of base64 strings as Go's
// []byte fields do after decoding (standard alphabet, padded); values that
// do not decode are kept.
func canonicalBase64(x any) any {
	m, ok := x.(map[string]any)
	if !ok {
		return x
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
		if s, ok := v.(string); ok {
			if b, err := base64.StdEncoding.DecodeString(s); err == nil {
				out[k] = base64.StdEncoding.EncodeToString(b)
			}
		}
	}
	return out
}

// podDependencies lists what KUDO v0.19 counted as a pod's dependencies,
// sorted by kind then name, duplicates kept.
func podDependencies(pt map[string]any) []dep {
	spec, _ := pt["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	var out []dep
	for _, x := range list(spec["imagePullSecrets"]) {
		out = append(out, dep{"Secret", str(x["name"])})
	}
	for _, v := range list(spec["volumes"]) {
		if cm, ok := v["configMap"].(map[string]any); ok {
			out = append(out, dep{"ConfigMap", str(cm["name"])})
		}
		if sec, ok := v["secret"].(map[string]any); ok {
			out = append(out, dep{"Secret", str(sec["secretName"])})
		}
	}
	slices.SortStableFunc(out, func(a, b dep) int {
		return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.name, b.name))
	})
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func list(v any) []map[string]any {
	items, _ := v.([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
