package enhance_test

import (
	"crypto/md5"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/kudo-render/kudo-render/enhance"
	"github.com/kudo-render/kudo-render/object"
)

const (
	cfgA = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: data}\ndata: {a: '1'}\n"
	cfgB = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: data}\ndata: {a: '2'}\n"
	secA = "apiVersion: v1\nkind: Secret\nmetadata: {name: sec, namespace: data}\ndata: {p: YQ==}\n"
	secB = "apiVersion: v1\nkind: Secret\nmetadata: {name: sec, namespace: data}\ndata: {p: Yg==}\n"
)

// deployment returns a Deployment in namespace data whose pod spec is spec.
func deployment(spec string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: data}\nspec:\n  template:\n    spec: " + spec + "\n"
}

func podHash(o *object.Object, path ...string) (string, bool) {
	ann := object.Get(o.Map, append(path, "metadata", "annotations")...)
	m, _ := ann.(map[string]any)
	v, ok := m[enhance.AnnDependencies].(string)
	return v, ok
}

// hashOf runs DependenciesHash on the objects and returns the hash on the
// pod template of the last one.
func hashOf(t *testing.T, objs ...string) (string, bool) {
	t.Helper()
	var os []*object.Object
	for _, s := range objs {
		os = append(os, obj(t, s))
	}
	if err := enhance.DependenciesHash(os); err != nil {
		t.Fatal(err)
	}
	return podHash(os[len(os)-1], "spec", "template")
}

func TestDependenciesHashReferences(t *testing.T) {
	cases := map[string]struct {
		reason   string
		spec     string
		dep, alt string // the dependency, and the same with other data
	}{
		"ConfigMapVolume": {
			reason: "A configMap volume is a dependency.",
			spec:   "{volumes: [{name: v, configMap: {name: cfg}}]}",
			dep:    cfgA, alt: cfgB,
		},
		"SecretVolume": {
			reason: "A secret volume (secretName) is a dependency.",
			spec:   "{volumes: [{name: v, secret: {secretName: sec}}]}",
			dep:    secA, alt: secB,
		},
		"ProjectedConfigMap": {
			reason: "A configMap source of a projected volume is a dependency.",
			spec:   "{volumes: [{name: v, projected: {sources: [{serviceAccountToken: {path: t}}, {configMap: {name: cfg}}]}}]}",
			dep:    cfgA, alt: cfgB,
		},
		"ProjectedSecret": {
			reason: "A secret source (name) of a projected volume is a dependency.",
			spec:   "{volumes: [{name: v, projected: {sources: [{secret: {name: sec}}]}}]}",
			dep:    secA, alt: secB,
		},
		"EnvFromConfigMap": {
			reason: "envFrom configMapRef is a dependency.",
			spec:   "{containers: [{name: c, envFrom: [{configMapRef: {name: cfg}}]}]}",
			dep:    cfgA, alt: cfgB,
		},
		"EnvFromSecret": {
			reason: "envFrom secretRef is a dependency.",
			spec:   "{containers: [{name: c, envFrom: [{secretRef: {name: sec}}]}]}",
			dep:    secA, alt: secB,
		},
		"EnvConfigMapKey": {
			reason: "env valueFrom configMapKeyRef is a dependency.",
			spec:   "{containers: [{name: c, env: [{name: X, value: x}, {name: A, valueFrom: {configMapKeyRef: {name: cfg, key: a}}}]}]}",
			dep:    cfgA, alt: cfgB,
		},
		"EnvSecretKey": {
			reason: "env valueFrom secretKeyRef is a dependency.",
			spec:   "{containers: [{name: c, env: [{name: P, valueFrom: {secretKeyRef: {name: sec, key: p}}}]}]}",
			dep:    secA, alt: secB,
		},
		"InitContainer": {
			reason: "References of init containers count too.",
			spec:   "{initContainers: [{name: i, envFrom: [{configMapRef: {name: cfg}}]}], containers: [{name: c}]}",
			dep:    cfgA, alt: cfgB,
		},
		"ImagePullSecrets": {
			reason: "imagePullSecrets are dependencies.",
			spec:   "{imagePullSecrets: [{name: sec}], containers: [{name: c}]}",
			dep:    secA, alt: secB,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d := deployment(tc.spec)
			h1, ok := hashOf(t, tc.dep, d)
			if !ok || len(h1) != 32 {
				t.Fatalf("\n%s\nDependenciesHash: want a hex MD5 annotation, got %q (present %t)", tc.reason, h1, ok)
			}
			h2, _ := hashOf(t, tc.alt, d)
			if h1 == h2 {
				t.Errorf("\n%s\nDependenciesHash: want the hash to change with the dependency's data, both %s", tc.reason, h1)
			}
			h3, _ := hashOf(t, tc.dep, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unrelated, namespace: data}\n", d)
			if h3 != h1 {
				t.Errorf("\n%s\nDependenciesHash: an unrelated ConfigMap changed the hash from %s to %s", tc.reason, h1, h3)
			}
		})
	}
}

func TestDependenciesHash(t *testing.T) {
	vol := deployment("{volumes: [{name: v, configMap: {name: cfg}}]}")
	base, _ := hashOf(t, cfgA, vol)
	// The hash of a pod whose only dependency contributes zero bytes.
	zeroHash := fmt.Sprintf("%x", md5.Sum(make([]byte, md5.Size)))
	cases := map[string]struct {
		reason  string
		objs    []string
		want    string // "" for no annotation
		same    bool   // want == base
		differs bool   // want != base
	}{
		"UnrelatedConfigMap": {
			reason: "A ConfigMap the pod does not use does not change the hash.",
			objs:   []string{cfgA, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: data}\ndata: {z: '9'}\n", vol},
			same:   true,
		},
		"OrderOfObjects": {
			reason: "The order of objects does not matter.",
			objs:   []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: other, namespace: data}\n", cfgA, vol},
			same:   true,
		},
		"AnnotationsIgnored": {
			reason: "Annotations of a dependency (e.g. Argo CD's) do not change the hash.",
			objs:   []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: data, annotations: {argocd.argoproj.io/sync-wave: '3'}}\ndata: {a: '1'}\n", vol},
			same:   true,
		},
		"LabelsCount": {
			reason:  "Labels of a dependency are part of the hash.",
			objs:    []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: data, labels: {x: y}}\ndata: {a: '1'}\n", vol},
			differs: true,
		},
		"NoDependencies": {
			reason: "A pod without ConfigMap or Secret references gets no annotation.",
			objs:   []string{cfgA, deployment("{containers: [{name: c, image: i}]}")},
		},
		"MissingDependency": {
			reason: "A dependency that is not in the output contributes an all-zero digest.",
			objs:   []string{deployment("{volumes: [{name: v, configMap: {name: absent}}]}")},
			want:   zeroHash,
		},
		"OtherNamespace": {
			reason:  "A ConfigMap of the same name in another namespace is not the pod's dependency.",
			objs:    []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: elsewhere}\ndata: {a: '1'}\n", vol},
			differs: true,
		},
		"SkipHash": {
			reason: "A dependency annotated kudo.dev/skip-hash-calculation contributes an all-zero digest, whatever its data.",
			objs:   []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: data, annotations: {kudo.dev/skip-hash-calculation: 'true'}}\ndata: {a: '1'}\n", vol},
			want:   zeroHash,
		},
		"SkipHashDataChange": {
			reason: "Changing the data of a skipped dependency does not change the hash.",
			objs:   []string{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: data, annotations: {kudo.dev/skip-hash-calculation: 'true'}}\ndata: {a: 'changed'}\n", vol},
			want:   zeroHash,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := hashOf(t, tc.objs...)
			switch {
			case tc.same:
				if got != base {
					t.Errorf("\n%s\nDependenciesHash: want %s, got %s", tc.reason, base, got)
				}
			case tc.differs:
				if got == base || !ok {
					t.Errorf("\n%s\nDependenciesHash: want a hash other than %s, got %q", tc.reason, base, got)
				}
			case tc.want == "":
				if ok {
					t.Errorf("\n%s\nDependenciesHash: want no annotation, got %s", tc.reason, got)
				}
			default:
				if got != tc.want {
					t.Errorf("\n%s\nDependenciesHash: want %s, got %s", tc.reason, tc.want, got)
				}
			}
		})
	}
}

// TestDependenciesHashValue pins the algorithm the package documents: the
// MD5 of the MD5s of each dependency, in sorted order (kind, then name).
func TestDependenciesHashValue(t *testing.T) {
	cm := obj(t, cfgA)
	sec := obj(t, secA)
	d := obj(t, deployment("{volumes: [{name: s, secret: {secretName: sec}}, {name: c, configMap: {name: cfg}}]}"))
	if err := enhance.DependenciesHash([]*object.Object{sec, cm, d}); err != nil {
		t.Fatal(err)
	}
	digest := func(o *object.Object) []byte {
		v := map[string]any{}
		for k, x := range o.Map {
			v[k] = x
		}
		v["metadata"] = map[string]any{"name": o.Name(), "labels": nil}
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		s := md5.Sum(data)
		return s[:]
	}
	outer := md5.New()
	outer.Write(digest(cm)) // ConfigMap sorts before Secret
	outer.Write(digest(sec))
	want := fmt.Sprintf("%x", outer.Sum(nil))
	if got, _ := podHash(d, "spec", "template"); got != want {
		t.Errorf("DependenciesHash: want %s, got %s", want, got)
	}
}

func TestDependenciesHashWorkloads(t *testing.T) {
	cases := map[string]struct {
		reason string
		obj    string
		path   []string
	}{
		"StatefulSet": {
			reason: "StatefulSet pod templates are hashed.",
			obj:    "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s, namespace: data}\nspec: {template: {spec: {volumes: [{name: v, configMap: {name: cfg}}]}}}\n",
			path:   []string{"spec", "template"},
		},
		"CronJob": {
			reason: "The pod template inside a CronJob's jobTemplate is hashed.",
			obj:    "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c, namespace: data}\nspec: {jobTemplate: {spec: {template: {spec: {volumes: [{name: v, configMap: {name: cfg}}]}}}}}\n",
			path:   []string{"spec", "jobTemplate", "spec", "template"},
		},
		"Job": {
			reason: "Job pod templates are hashed.",
			obj:    "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: data}\nspec: {template: {spec: {containers: [{name: c, envFrom: [{configMapRef: {name: cfg}}]}]}}}\n",
			path:   []string{"spec", "template"},
		},
		"DaemonSet": {
			reason: "DaemonSet pod templates are hashed.",
			obj:    "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d, namespace: data}\nspec: {template: {spec: {volumes: [{name: v, configMap: {name: cfg}}]}}}\n",
			path:   []string{"spec", "template"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			a, b := obj(t, tc.obj), obj(t, tc.obj)
			if err := enhance.DependenciesHash([]*object.Object{obj(t, cfgA), a}); err != nil {
				t.Fatal(err)
			}
			if err := enhance.DependenciesHash([]*object.Object{obj(t, cfgB), b}); err != nil {
				t.Fatal(err)
			}
			ha, okA := podHash(a, tc.path...)
			hb, _ := podHash(b, tc.path...)
			if !okA || ha == hb {
				t.Errorf("\n%s\nDependenciesHash: want a hash that follows the ConfigMap, got %q and %q", tc.reason, ha, hb)
			}
		})
	}
}
