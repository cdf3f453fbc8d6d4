package enhance

import (
	"crypto/md5"
	"fmt"
	"slices"

	"github.com/kudo-render/kudo-render/object"
)

type dep struct{ kind, name string }

// DependenciesHash sets kudo.dev/dependencies-hash on the pod templates of
// objs, from the ConfigMaps and Secrets among objs that each pod uses
// (volumes, projected volumes, imagePullSecrets, envFrom and env
// valueFrom). As in KUDO, each dependency is hashed with MD5 and the
// annotation is the MD5 of those digests in sorted order; a dependency that
// is not in objs, or that carries kudo.dev/skip-hash-calculation,
// contributes zero bytes. Pod templates without dependencies get no
// annotation.
func DependenciesHash(objs []*object.Object) error {
	var index map[string]*object.Object // built when a pod first needs it
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
				sum := [md5.Size]byte{}
				if dobj, ok := index[d.kind+"/"+o.Namespace()+"/"+d.name]; ok {
					if _, skip := dobj.MapAt("metadata", "annotations")[AnnSkipHash]; !skip {
						data, err := object.JSON(hashView(dobj))
						if err != nil {
							return fmt.Errorf("cannot hash %s %q: %w", d.kind, d.name, err)
						}
						sum = md5.Sum(data)
					}
				}
				outer.Write(sum[:])
			}
			object.SetStrings(pt, map[string]string{AnnDependencies: fmt.Sprintf("%x", outer.Sum(nil))}, "metadata", "annotations")
		}
	}
	return nil
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

// hashView is the part of a ConfigMap or Secret that matters to pods: all
// of it except annotations and the namespace.
func hashView(o *object.Object) map[string]any {
	v := make(map[string]any, len(o.Map))
	for k, x := range o.Map {
		v[k] = x
	}
	if md, ok := o.Map["metadata"].(map[string]any); ok {
		v["metadata"] = map[string]any{"name": md["name"], "labels": md["labels"]}
	}
	return v
}

func podDependencies(pt map[string]any) []dep {
	spec, _ := pt["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	seen := map[dep]bool{}
	add := func(kind string, name any) {
		if s, ok := name.(string); ok && s != "" {
			seen[dep{kind, s}] = true
		}
	}
	for _, x := range list(spec["imagePullSecrets"]) {
		add("Secret", x["name"])
	}
	for _, v := range list(spec["volumes"]) {
		add("ConfigMap", object.Get(v, "configMap", "name"))
		add("Secret", object.Get(v, "secret", "secretName"))
		srcs, _ := object.Get(v, "projected", "sources").([]any)
		for _, s := range srcs {
			if sm, ok := s.(map[string]any); ok {
				add("ConfigMap", object.Get(sm, "configMap", "name"))
				add("Secret", object.Get(sm, "secret", "name"))
			}
		}
	}
	for _, field := range []string{"containers", "initContainers"} {
		for _, c := range list(spec[field]) {
			for _, ef := range list(c["envFrom"]) {
				add("ConfigMap", object.Get(ef, "configMapRef", "name"))
				add("Secret", object.Get(ef, "secretRef", "name"))
			}
			for _, e := range list(c["env"]) {
				add("ConfigMap", object.Get(e, "valueFrom", "configMapKeyRef", "name"))
				add("Secret", object.Get(e, "valueFrom", "secretKeyRef", "name"))
			}
		}
	}
	out := make([]dep, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b dep) int {
		if a.kind != b.kind {
			return compare(a.kind, b.kind)
		}
		return compare(a.name, b.name)
	})
	return out
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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
