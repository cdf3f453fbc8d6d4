package refs

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	gtcmp "gotest.tools/v3/assert/cmp"
)

func TestExpandComposables(t *testing.T) {
	type want struct {
		out         string
		err         string
		errContains []string
	}
	cases := map[string]struct {
		reason string
		items  string
		lookup string
		want   want
	}{
		"Template": {
			reason: "A Composable becomes its resolved template, in the Composable's namespace; other items stay, in order.",
			items: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: app}
data: {port: "8080"}
---
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec:
  template:
    apiVersion: v1
    kind: Service
    metadata: {name: svc, namespace: ignored}
    spec:
      ports:
      - port: {getValueFrom: {kind: ConfigMap, name: cfg, path: '{.data.port}', format-transformers: [StringToInt]}}
`,
			want: want{out: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: app}
data: {port: "8080"}
---
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: app}
spec:
  ports:
  - port: 8080
`},
		},
		"TemplateWithoutMetadata": {
			reason: "A template without metadata gets one with the namespace.",
			items: `
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec:
  template: {apiVersion: example.com/v1, kind: Thing, spec: {v: 1}}
`,
			want: want{out: `
apiVersion: example.com/v1
kind: Thing
metadata: {namespace: app}
spec: {v: 1}
`},
		},
		"ClusterScopedTemplate": {
			reason: "A cluster-scoped kind gets no namespace.",
			items: `
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec:
  template:
    apiVersion: rbac.authorization.k8s.io/v1
    kind: ClusterRole
    metadata: {name: {getValueFrom: {kind: cm, name: names, path: '{.data.role}'}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: names, namespace: app}
data: {role: reader}
`,
			want: want{out: `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: reader}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: names, namespace: app}
data: {role: reader}
`},
		},
		"ReferenceToLookup": {
			reason: "Templates read lookup objects.",
			items: `
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec:
  template:
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: out}
    data: {host: {getValueFrom: {kind: svc, name: db, path: '{.spec.clusterIP}'}}}
`,
			lookup: `
apiVersion: v1
kind: Service
metadata: {name: db, namespace: app}
spec: {clusterIP: 10.0.0.1}
`,
			want: want{out: `
apiVersion: v1
kind: ConfigMap
metadata: {name: out, namespace: app}
data: {host: 10.0.0.1}
`},
		},
		"ErrorNamesComposable": {
			reason: "An error about a template's reference names the Composable.",
			items: `
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec:
  template:
    apiVersion: v1
    kind: ConfigMap
    metadata: {name: out}
    data: {host: {getValueFrom: {kind: svc, name: db, path: '{.spec.clusterIP}'}}}
`,
			want: want{err: "ObjectNotFound", errContains: []string{"ConfigMap app/out (spec.template of Composable app/comp): data.host:"}},
		},
		"UnsupportedVersion": {
			reason: "Only v1alpha1 is Composable's API.",
			items: `
apiVersion: ibmcloud.ibm.com/v1
kind: Composable
metadata: {name: comp, namespace: app}
spec: {template: {apiVersion: v1, kind: ConfigMap}}
`,
			want: want{err: "IllFormedRef", errContains: []string{"Composable app/comp: apiVersion:"}},
		},
		"NoTemplate": {
			reason: "A Composable needs a template.",
			items: `
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec: {}
`,
			want: want{err: "IllFormedRef", errContains: []string{"Composable app/comp: spec.template:"}},
		},
		"UnknownSpecField": {
			reason: "A Composable's spec has only a template.",
			items: `
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec: {template: {apiVersion: v1, kind: ConfigMap}, tmplate: {}}
`,
			want: want{err: "IllFormedRef", errContains: []string{"unknown field tmplate"}},
		},
		"TemplateWithoutKind": {
			reason: "The template is an object: it needs apiVersion and kind.",
			items: `
apiVersion: ibmcloud.ibm.com/v1alpha1
kind: Composable
metadata: {name: comp, namespace: app}
spec: {template: {apiVersion: v1}}
`,
			want: want{err: "IllFormedRef", errContains: []string{"the template has no kind"}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			items := decodeStream(t, tc.items)
			lookup := decodeStream(t, tc.lookup)
			before := deepCopyAll(items)
			out, err := ExpandComposables(items, lookup, Options{})
			assert.Assert(t, gtcmp.DeepEqual(tc.want.err, errClass(err)), "%s\nExpandComposables(...): -want error class, +got:\n\n%v", tc.reason, err)
			assert.Check(t, gtcmp.DeepEqual(before, mapsOf(items)), "%s\nExpandComposables(...): items changed", tc.reason)
			if err != nil {
				for _, s := range tc.want.errContains {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("%s\nerror does not contain %q:\n%v", tc.reason, s, err)
					}
				}
				if out != nil {
					t.Errorf("%s\nExpandComposables(...): want no objects on error", tc.reason)
				}
				return
			}
			assert.Check(t, gtcmp.DeepEqual(mapsOf(decodeStream(t, tc.want.out)), mapsOf(out)), "%s\nExpandComposables(...)", tc.reason)
		})
	}
}
