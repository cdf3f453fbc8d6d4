package enhance_test

import (
	"crypto/md5"
	"fmt"
	"testing"

	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
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

// TestDependenciesHashNotReferences: what KUDO v0.19 did not count as a
// dependency gets no hash, so that adopting a KUDO install changes no pod
// template.
func TestDependenciesHashNotReferences(t *testing.T) {
	cases := map[string]struct {
		reason string
		spec   string
	}{
		"ProjectedConfigMap": {
			reason: "KUDO did not read projected volumes.",
			spec:   "{volumes: [{name: v, projected: {sources: [{configMap: {name: cfg}}]}}]}",
		},
		"EnvFrom": {
			reason: "KUDO did not read envFrom.",
			spec:   "{containers: [{name: c, envFrom: [{configMapRef: {name: cfg}}, {secretRef: {name: sec}}]}]}",
		},
		"EnvValueFrom": {
			reason: "KUDO did not read env valueFrom.",
			spec:   "{containers: [{name: c, env: [{name: A, valueFrom: {configMapKeyRef: {name: cfg, key: a}}}, {name: P, valueFrom: {secretKeyRef: {name: sec, key: p}}}]}]}",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if h, ok := hashOf(t, cfgA, secA, deployment(tc.spec)); ok {
				t.Errorf("\n%s\nDependenciesHash: want no annotation, got %s", tc.reason, h)
			}
		})
	}
}

// TestDependenciesHashAsKUDO checks the values KUDO's own end-to-end test
// (test/e2e/dependencies-hash in kudobuilder/kudo) asserted on a live
// cluster: operator dep-operator, instance depop, a Deployment with one
// configMap volume of a ConfigMap with two values.
func TestDependenciesHashAsKUDO(t *testing.T) {
	cases := map[string]struct {
		reason string
		a, b   string
		want   string
	}{
		"Install":           {"00-assert.yaml: the defaults.", "FancyValue", "OtherFancyValue", "6fa812afe527bdb6c9a5fbfcba8193bb"},
		"ConfigParamUpdate": {"03-assert.yaml: CONFIG_MAP_VALUE changed.", "ChangedValue", "OtherFancyValue", "da9f56a62d3c4af2596bebace008d845"},
		"BothParamsUpdated": {"05-assert.yaml: OTHER_CONFIG_VALUE changed too.", "ChangedValue", "SecondChangedValue", "1510654b540619228b477bdd56d44175"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			labels := "labels: {heritage: kudo, kudo.dev/operator: dep-operator, kudo.dev/instance: depop}"
			cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: configdata, namespace: kuttl-test, " + labels +
				", annotations: {kudo.dev/plan: deploy, kudo.dev/phase: main, kudo.dev/step: everything}}\ndata: {valueA: " + tc.a + ", valueB: " + tc.b + "}\n"
			d := "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: nginx-deployment, namespace: kuttl-test}\nspec:\n  template:\n    spec: {containers: [{name: nginx, image: 'nginx:1.7.9'}], volumes: [{name: config, configMap: {name: configdata}}]}\n"
			if got, _ := hashOf(t, cm, d); got != tc.want {
				t.Errorf("\n%s\nDependenciesHash: want KUDO's %s, got %s", tc.reason, tc.want, got)
			}
		})
	}
}

// TestDependenciesHashOrderAndRepeats: digests are written in the order of
// kind then name, once per reference, as KUDO wrote them.
func TestDependenciesHashOrderAndRepeats(t *testing.T) {
	zero := make([]byte, md5.Size)
	cases := map[string]struct {
		reason string
		spec   string
		n      int // references, all absent: n zero digests
	}{
		"Repeated":            {"A ConfigMap mounted twice counts twice.", "{volumes: [{name: a, configMap: {name: x}}, {name: b, configMap: {name: x}}]}", 2},
		"PullSecretAndVolume": {"A pull secret and a volume of the same Secret count twice.", "{imagePullSecrets: [{name: s}], volumes: [{name: a, secret: {secretName: s}}]}", 2},
		"Single":              {"One reference, one digest.", "{volumes: [{name: a, secret: {secretName: s}}]}", 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			outer := md5.New()
			for range tc.n {
				outer.Write(zero)
			}
			if got, _ := hashOf(t, deployment(tc.spec)); got != fmt.Sprintf("%x", outer.Sum(nil)) {
				t.Errorf("\n%s\nDependenciesHash: got %s, want the MD5 of %d zero digests", tc.reason, got, tc.n)
			}
		})
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
			obj:    "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, namespace: data}\nspec: {template: {spec: {volumes: [{name: v, configMap: {name: cfg}}]}}}\n",
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
