package refs

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
	"gotest.tools/v3/assert"
	gtcmp "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestResolve covers where references may be, the order of resolution,
// cycles, lookup objects and the all-or-nothing rule.
func TestResolve(t *testing.T) {
	type want struct {
		objs        string   // YAML stream of objs after Resolve
		err         string   // error class
		errContains []string // substrings of the error message
		errCount    int      // number of joined errors (0: do not check)
	}
	cases := map[string]struct {
		reason string
		objs   string
		lookup string
		want   want
	}{
		"ListElement": {
			reason: "A list element `- getValueFrom: {...}` is replaced.",
			objs: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
  - name: c
    args: [--host, {getValueFrom: {kind: cm, name: c, path: '{.data.host}'}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {host: h}
`,
			want: want{objs: `
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
  - name: c
    args: [--host, h]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {host: h}
`},
		},
		"BesideOtherKeys": {
			reason: "getValueFrom beside other keys is ill-formed.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data:
  x: {getValueFrom: {kind: cm, name: a, path: '{.data.y}'}, other: 1}
  y: "1"
`,
			want: want{err: "IllFormedRef", errContains: []string{"ConfigMap ns/a: data.x:", "beside other"}},
		},
		"WholeObject": {
			reason: "An object cannot be a reference as a whole.",
			objs:   `getValueFrom: {kind: cm, name: a, path: '{.data}'}`,
			want:   want{err: "IllFormedRef"},
		},
		"MetadataName": {
			reason: "A reference in metadata.name is resolved first; other references then find the object by its resolved name.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: reader, namespace: ns}
data:
  v: {getValueFrom: {kind: cm, name: named-by-ref, path: '{.data.x}'}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  namespace: ns
  name: {getValueFrom: {kind: cm, name: names, path: '{.data.name}'}}
data: {x: found}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: names, namespace: ns}
data: {name: named-by-ref}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: reader, namespace: ns}
data: {v: found}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: named-by-ref, namespace: ns}
data: {x: found}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: names, namespace: ns}
data: {name: named-by-ref}
`},
		},
		"LabelFromReference": {
			reason: "A label set by a reference is visible to label selection.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: reader, namespace: ns}
data:
  v: {getValueFrom: {kind: cm, labels: {app: db}, path: '{.data.x}'}}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: target
  namespace: ns
  labels: {app: {getValueFrom: {kind: cm, name: names, path: '{.data.app}'}}}
data: {x: found}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: names, namespace: ns}
data: {app: db}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: reader, namespace: ns}
data: {v: found}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: target, namespace: ns, labels: {app: db}}
data: {x: found}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: names, namespace: ns}
data: {app: db}
`},
		},
		"NamespaceFromReference": {
			reason: "A reference without namespace waits for a reference in its own object's metadata.namespace.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: {getValueFrom: {kind: cm, name: cfg, namespace: base, path: '{.data.ns}'}}
data:
  v: {getValueFrom: {kind: cm, name: cfg, path: '{.data.v}'}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: base}
data: {ns: other, v: from-base}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: other}
data: {v: from-other}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: other}
data: {v: from-other}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: base}
data: {ns: other, v: from-base}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: other}
data: {v: from-other}
`},
		},
		"NamespaceReferenceNeedsNamespace": {
			reason: "A reference setting its own object's namespace cannot default to it.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  namespace: {getValueFrom: {kind: cm, name: cfg, path: '{.data.ns}'}}
`,
			want: want{err: "IllFormedRef", errContains: []string{"metadata.namespace", "must set namespace"}},
		},
		"Chain": {
			reason: "A takes from B, B takes from C: resolved in dependency order whatever the order of the objects.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {a: {getValueFrom: {kind: cm, name: b, path: '{.data.b}'}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
data: {b: {getValueFrom: {kind: cm, name: c, path: '{.data.c}'}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {c: value}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {a: value}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
data: {b: value}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {c: value}
`},
		},
		"ChainBelowPath": {
			reason: "Reading a mapping waits for the references inside it.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {copy: {getValueFrom: {kind: Widget, name: b, path: '{.spec}', format-transformers: [ObjectToJson]}}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b, namespace: ns}
spec: {x: {getValueFrom: {kind: cm, name: c, path: '{.data.c}', format-transformers: [StringToInt]}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {c: "5"}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {copy: '{"x":5}'}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b, namespace: ns}
spec: {x: 5}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {c: "5"}
`},
		},
		"ChainAbovePath": {
			reason: "Reading a field waits for a reference that replaces a mapping above it.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: {getValueFrom: {kind: Widget, name: b, path: '{.spec.inner.x}'}}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b, namespace: ns}
spec: {inner: {getValueFrom: {kind: cm, name: c, path: '{.data.json}', format-transformers: [JsonToObject]}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {json: '{"x": 1.5}'}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: 1.5}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b, namespace: ns}
spec: {inner: {x: 1.5}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {json: '{"x": 1.5}'}
`},
		},
		"NoFalseCycle": {
			reason: "A takes from B and B from A, but from fields that are not references: no cycle.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data:
  fromB: {getValueFrom: {kind: cm, name: b, path: '{.data.plain}'}}
  plain: a-value
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
data:
  fromA: {getValueFrom: {kind: cm, name: a, path: '{.data.plain}'}}
  plain: b-value
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {fromB: b-value, plain: a-value}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
data: {fromA: a-value, plain: b-value}
`},
		},
		"Cycle": {
			reason: "A takes from B, B from C, C from A: a cycle naming the three objects.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {a: {getValueFrom: {kind: cm, name: b, path: '{.data.b}'}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
data: {b: {getValueFrom: {kind: cm, name: c, path: '{.data.c}'}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {c: {getValueFrom: {kind: cm, name: a, path: '{.data.a}', defaultValue: x}}}
`,
			want: want{err: "Cycle", errCount: 1, errContains: []string{
				"reference cycle: ConfigMap ns/a data.a -> ConfigMap ns/b data.b -> ConfigMap ns/c data.c -> ConfigMap ns/a data.a",
			}},
		},
		"SelfCycle": {
			reason: "A reference reading a mapping that contains it is a cycle.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {a: {getValueFrom: {kind: cm, name: a, path: '{.data}', format-transformers: [ObjectToJson]}}}
`,
			want: want{err: "Cycle", errContains: []string{"ConfigMap ns/a data.a -> ConfigMap ns/a data.a"}},
		},
		"SelfReference": {
			reason: "An object may take a value from another of its own fields.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {a: {getValueFrom: {kind: cm, name: a, path: '{.data.b}'}}, b: B}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {a: B, b: B}
`},
		},
		"DependencyFailureReportedOnce": {
			reason: "When B's reference fails, A (which reads it) fails too, but only B's error is reported.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {a: {getValueFrom: {kind: cm, name: b, path: '{.data.b}', defaultValue: unused}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
data: {b: {getValueFrom: {kind: cm, name: missing, path: '{.data.c}'}}}
`,
			want: want{err: "ObjectNotFound", errCount: 1, errContains: []string{"ConfigMap ns/b: data.b:"}},
		},
		"AllErrorsReported": {
			reason: "Every failing reference is reported at once.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data:
  x: {getValueFrom: {kind: cm, name: missing, path: '{.data.c}'}}
  y: {getValueFrom: {kind: nokind, name: missing, path: '{.data.c}'}}
  z: {getValueFrom: {kind: cm, name: a, path: '{.data.nope}'}}
`,
			want: want{err: "ObjectNotFound", errCount: 3, errContains: []string{"data.x:", "data.y:", "data.z:"}},
		},
		"LookupRefsResolvedOnDemand": {
			reason: "A reference may read a lookup object's value that is itself a reference; the lookup object is not modified.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: {getValueFrom: {kind: cm, name: item, path: '{.data.x}'}}}
`,
			lookup: `
apiVersion: v1
kind: ConfigMap
metadata: {name: item, namespace: ns}
data: {x: {getValueFrom: {kind: cm, name: source, path: '{.data.s}'}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: source, namespace: ns}
data: {s: deep}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: deep}
`},
		},
		"LookupBrokenRefUnread": {
			reason: "A broken reference in a lookup object that nothing reads is not an error: lookup objects are not rendered.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: {getValueFrom: {kind: cm, name: item, path: '{.data.ok}'}}}
`,
			lookup: `
apiVersion: v1
kind: ConfigMap
metadata: {name: item, namespace: ns}
data: {ok: fine, broken: {getValueFrom: {kind: cm, name: nope, path: '{.x}'}}}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: fine}
`},
		},
		"LookupIdentityRefNotResolved": {
			reason: "A lookup object is found by its identifying fields as written: a reference there is not resolved, and not an error.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: {getValueFrom: {kind: cm, name: plain, path: '{.data.x}'}}}
`,
			lookup: `
apiVersion: v1
kind: ConfigMap
metadata:
  namespace: ns
  name: {getValueFrom: {kind: cm, name: missing, path: '{.data.name}'}}
data: {x: unreachable}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: plain, namespace: ns}
data: {x: reachable}
`,
			want: want{objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: reachable}
`},
		},
		"DuplicateObjects": {
			reason: "Two objects with the same kind, namespace and name: the reference is ambiguous.",
			objs: `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: {getValueFrom: {kind: cm, name: dup, path: '{.data.x}'}}}
`,
			lookup: `
apiVersion: v1
kind: ConfigMap
metadata: {name: dup, namespace: ns}
data: {x: one}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: dup, namespace: ns}
data: {x: two}
`,
			want: want{err: "IllFormedRef", errContains: []string{"2 objects match"}},
		},
		"CRDSchemaNotSearched": {
			reason: "A CRD schema property named getValueFrom (Composable's own CRD) is not a reference.",
			objs: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          value:
            properties:
              getValueFrom: {type: object}
`,
			want: want{objs: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        properties:
          value:
            properties:
              getValueFrom: {type: object}
`},
		},
		"CRDNamesFromReference": {
			reason: "A CRD's names may come from a reference; its kind is then known by those names.",
			objs: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things, shortNames: [{getValueFrom: {kind: cm, name: c, namespace: ns, path: '{.data.short}'}}]}
  scope: Namespaced
---
apiVersion: example.com/v1
kind: Thing
metadata: {name: t, namespace: ns}
spec: {v: 1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {short: thg, v: {getValueFrom: {kind: thg, name: t, path: '{.spec.v}'}}}
`,
			want: want{objs: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things, shortNames: [thg]}
  scope: Namespaced
---
apiVersion: example.com/v1
kind: Thing
metadata: {name: t, namespace: ns}
spec: {v: 1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c, namespace: ns}
data: {short: thg, v: 1}
`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs := decodeStream(t, tc.objs)
			lookup := decodeStream(t, tc.lookup)
			beforeObjs, beforeLookup := deepCopyAll(objs), deepCopyAll(lookup)
			err := Resolve(objs, lookup, Options{})
			assert.Assert(t, gtcmp.DeepEqual(tc.want.err, errClass(err)), "%s\nResolve(...): -want error class, +got:\n\nerror: %v", tc.reason, err)
			assert.Check(t, gtcmp.DeepEqual(beforeLookup, mapsOf(lookup)), "%s\nResolve(...): lookup objects changed", tc.reason)
			if err != nil {
				for _, s := range tc.want.errContains {
					if !strings.Contains(err.Error(), s) {
						t.Errorf("%s\nResolve(...): error does not contain %q:\n%v", tc.reason, s, err)
					}
				}
				if n := len(leafErrors(err)); tc.want.errCount != 0 && n != tc.want.errCount {
					t.Errorf("%s\nResolve(...): want %d errors, got %d:\n%v", tc.reason, tc.want.errCount, n, err)
				}
				assert.Check(t, gtcmp.DeepEqual(beforeObjs, mapsOf(objs)), "%s\nResolve(...): objs changed although it failed", tc.reason)
				return
			}
			assert.Check(t, gtcmp.DeepEqual(mapsOf(decodeStream(t, tc.want.objs)), mapsOf(objs)), "%s\nResolve(...)", tc.reason)
		})
	}
}

// TestErrorMessages checks complete messages: each names the referencing
// object, the field path and the reference.
func TestErrorMessages(t *testing.T) {
	cases := map[string]struct {
		reason string
		ref    string
		noNS   bool
		want   string
	}{
		"ObjectNotFound": {
			reason: "Object, field, reference and the object looked for.",
			ref:    `{kind: svc, name: db, path: '{.spec.ports[0].port}'}`,
			want:   `ConfigMap app/user: data.v: getValueFrom {kind: svc, name: db, path: '{.spec.ports[0].port}'}: object not found: no Service (core group) named "db" in namespace "app"`,
		},
		"ObjectNotFoundLabels": {
			reason: "Labels are listed sorted.",
			ref:    `{kind: ConfigMap, labels: {b: "2", a: "1"}, path: '{.data}'}`,
			want:   `ConfigMap app/user: data.v: getValueFrom {kind: ConfigMap, labels: {a: '1', b: '2'}, path: '{.data}'}: object not found: no ConfigMap (core group) with labels a=1,b=2 in namespace "app"`,
		},
		"KindNotFound": {
			reason: "The kind and apiVersion looked for.",
			ref:    `{kind: Widget, apiVersion: example.com/v1, name: w, path: '{.spec}'}`,
			want:   `ConfigMap app/user: data.v: getValueFrom {kind: Widget, apiVersion: example.com/v1, name: w, path: '{.spec}'}: kind not found: no kind, plural, singular or short name "Widget" with apiVersion example.com/v1 among the built-in kinds, the CustomResourceDefinitions and the objects of the render`,
		},
		"ValueNotFound": {
			reason: "The path, the object and jsonpath's reason.",
			ref:    `{kind: cm, name: user, path: '{.data.nope}'}`,
			want:   `ConfigMap app/user: data.v: getValueFrom {kind: cm, name: user, path: '{.data.nope}'}: value not found: {.data.nope} in ConfigMap app/user: nope is not found`,
		},
		"ObjectNotFoundNoNamespace": {
			reason: "A namespaced kind looked up from an object without namespace says so.",
			ref:    `{kind: cm, name: x, path: '{.data}'}`,
			noNS:   true,
			want:   `ConfigMap user: data.v: getValueFrom {kind: cm, name: x, path: '{.data}'}: object not found: no ConfigMap (core group) named "x" (the kind is namespaced but neither the reference nor the referencing object has a namespace)`,
		},
		"IllFormed": {
			reason: "The reason.",
			ref:    `{kind: cm, name: user, labels: {a: b}, path: '{.data}'}`,
			want:   `ConfigMap app/user: data.v: getValueFrom {kind: cm, name: user, labels: {a: b}, path: '{.data}'}: ill-formed reference: name and labels are both set; set exactly one of them`,
		},
		"Transform": {
			reason: "The transformer, its position and the value.",
			ref:    `{kind: cm, name: user, path: '{.metadata.name}', format-transformers: [ToString, StringToBool]}`,
			want:   `ConfigMap app/user: data.v: getValueFrom {kind: cm, name: user, path: '{.metadata.name}', format-transformers: [ToString, StringToBool]}: format-transformers[1] StringToBool: "user" is not a boolean (1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False)`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			objs := decodeStream(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: user, namespace: app}\ndata:\n  v: {getValueFrom: "+tc.ref+"}\n")
			if tc.noNS {
				delete(objs[0].MapAt("metadata"), "namespace")
			}
			err := Resolve(objs, nil, Options{})
			if err == nil {
				t.Fatalf("%s\nResolve(...): want an error", tc.reason)
			}
			assert.Check(t, gtcmp.DeepEqual(tc.want, err.Error()), "%s\nResolve(...)", tc.reason)
		})
	}
}

// TestErrorClasses checks errors.As and the Is* helpers on each class.
func TestErrorClasses(t *testing.T) {
	cases := map[string]struct {
		reason   string
		err      error
		notFound bool
		check    func(error) bool
	}{
		"IllFormed":      {"Not a RefNotFound.", &IllFormedRefError{}, false, IsIllFormedRef},
		"KindNotFound":   {"A RefNotFound.", &KindNotFoundError{}, true, IsKindNotFound},
		"ObjectNotFound": {"A RefNotFound.", &ObjectNotFoundError{}, true, IsObjectNotFound},
		"ValueNotFound":  {"A RefNotFound.", &ValueNotFoundError{}, true, IsValueNotFound},
		"Wrapped":        {"Found through wrapping and joining.", errors.Join(errors.New("x"), &wrapErr{&ValueNotFoundError{}}), true, IsValueNotFound},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if !tc.check(tc.err) {
				t.Errorf("%s\nclass check of %T: want true", tc.reason, tc.err)
			}
			if got := IsRefNotFound(tc.err); got != tc.notFound {
				t.Errorf("%s\nIsRefNotFound(%T): want %v, got %v", tc.reason, tc.err, tc.notFound, got)
			}
			var rnf RefNotFound
			if got := errors.As(tc.err, &rnf); got != tc.notFound {
				t.Errorf("%s\nerrors.As(%T, RefNotFound): want %v, got %v", tc.reason, tc.err, tc.notFound, got)
			}
		})
	}
}

type wrapErr struct{ err error }

func (w *wrapErr) Error() string { return "wrapped: " + w.err.Error() }
func (w *wrapErr) Unwrap() error { return w.err }

func TestSecretCopy(t *testing.T) {
	const objs = `
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: ns}
data: {password: cGFzcw==}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: leak, namespace: ns}
data:
  pw: {getValueFrom: {kind: secret, name: db, path: '{.data.password}', format-transformers: [Base64ToString]}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: indirect, namespace: ns}
data:
  pw: {getValueFrom: {kind: cm, name: leak, path: '{.data}', format-transformers: [ObjectToJson]}}
---
apiVersion: v1
kind: Secret
metadata: {name: copy, namespace: ns}
data:
  password: {getValueFrom: {kind: secret, name: db, path: '{.data.password}'}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: clean, namespace: ns}
data:
  v: {getValueFrom: {kind: cm, name: leak, path: '{.metadata.name}'}}
`
	cases := map[string]struct {
		reason   string
		opts     bool
		warnings []string
		err      string
	}{
		"Warn": {
			reason: "Copying out of a Secret into a ConfigMap, directly or through another reference, warns; Secret to Secret does not; a field beside the secret value does not.",
			warnings: []string{
				`ConfigMap ns/leak: data.pw: getValueFrom {kind: secret, name: db, path: '{.data.password}', format-transformers: [Base64ToString]}: value copied out of Secret ns/db into a non-Secret object, where it is stored in clear text`,
				`ConfigMap ns/indirect: data.pw: getValueFrom {kind: cm, name: leak, path: '{.data}', format-transformers: [ObjectToJson]}: value copied out of Secret ns/db into a non-Secret object, where it is stored in clear text`,
			},
		},
		"Fail": {
			reason: "FailOnSecretCopy turns the warnings into errors.",
			opts:   true,
			err:    "SecretCopy",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			o := decodeStream(t, objs)
			before := deepCopyAll(o)
			var warnings []string
			err := Resolve(o, nil, Options{FailOnSecretCopy: tc.opts, Warn: func(m string) { warnings = append(warnings, m) }})
			assert.Assert(t, gtcmp.DeepEqual(tc.err, errClass(err)), "%s\nResolve(...): -want error class, +got:\n\n%v", tc.reason, err)
			assert.Check(t, gtcmp.DeepEqual(tc.warnings, warnings), "%s\nResolve(...)", tc.reason)
			if err != nil {
				if n := len(leafErrors(err)); n != 2 {
					t.Errorf("%s\nwant 2 errors, got %d: %v", tc.reason, n, err)
				}
				assert.Check(t, gtcmp.DeepEqual(before, mapsOf(o)), "%s\nobjs changed although Resolve failed", tc.reason)
				return
			}
			if got := object.Get(o[1].Map, "data", "pw"); got != "pass" {
				t.Errorf("%s\nleak data.pw: want pass, got %v", tc.reason, got)
			}
		})
	}
}

// TestResolveInPlace: the objects are updated in place, the caller's
// pointers and top-level maps stay the same, and values are copies.
func TestResolveInPlace(t *testing.T) {
	objs := decodeStream(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {v: {getValueFrom: {kind: Widget, name: w, path: '{.spec.list}'}}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: ns}
spec: {list: [1, 2]}
`)
	top := objs[0].Map
	if err := Resolve(objs, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	top["marker"] = true
	if objs[0].Map["marker"] != true {
		t.Error("Resolve replaced the object's map instead of updating it")
	}
	got := object.Get(objs[0].Map, "data", "v").([]any)
	got[0] = "changed"
	assert.Check(t, gtcmp.DeepEqual([]any{int64(1), int64(2)}, object.Get(objs[1].Map, "spec", "list")), "the copied value shares memory with its source")
}

// TestCycleObjects reads the objects of a cycle through errors.As.
func TestCycleObjects(t *testing.T) {
	objs := decodeStream(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: a, namespace: ns}
data: {x: {getValueFrom: {kind: cm, name: b, path: '{.data.y}'}}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b, namespace: ns}
data: {y: {getValueFrom: {kind: cm, name: a, path: '{.data}'}}}
`)
	err := Resolve(objs, nil, Options{})
	var cycle *CycleError
	if !errors.As(err, &cycle) {
		t.Fatalf("Resolve(...): want a *CycleError, got %v", err)
	}
	assert.Check(t, gtcmp.DeepEqual([]string{"ConfigMap ns/a", "ConfigMap ns/b"}, cycle.Objects()), "CycleError.Objects()")
	assert.Check(t, gtcmp.DeepEqual([]Ref{{Object: "ConfigMap ns/a", Field: "data.x", Wanted: "{kind: cm, name: b, path: '{.data.y}'}"}, {Object: "ConfigMap ns/b", Field: "data.y", Wanted: "{kind: cm, name: a, path: '{.data}'}"}, {Object: "ConfigMap ns/a", Field: "data.x", Wanted: "{kind: cm, name: b, path: '{.data.y}'}"}}, cycle.Refs, cmpopts.IgnoreFields(Ref{}, "Resource")), "CycleError.Refs")
	ds := cycle.Diagnostics()
	if len(ds) != 1 || ds[0].Resource == nil || ds[0].Resource.Name != "a" || ds[0].Field != "data.x" {
		t.Errorf("CycleError.Diagnostics(): want the first object and field, got %+v", ds)
	}
}

func TestFieldPath(t *testing.T) {
	cases := map[string]struct {
		reason string
		path   []seg
		want   string
	}{
		"Fields":   {"Plain keys are joined by dots.", []seg{{key: "spec"}, {key: "replicas"}}, "spec.replicas"},
		"Indexes":  {"List indexes in brackets.", []seg{{key: "spec"}, {key: "containers"}, {idx: 0, isIdx: true}, {key: "env"}, {idx: 1, isIdx: true}, {key: "value"}}, "spec.containers[0].env[1].value"},
		"Dotted":   {"Keys with dots are quoted in brackets.", []seg{{key: "metadata"}, {key: "annotations"}, {key: "kudo.dev/plan"}}, `metadata.annotations["kudo.dev/plan"]`},
		"TopIndex": {"A list element of a list.", []seg{{key: "a"}, {idx: 2, isIdx: true}, {idx: 3, isIdx: true}}, "a[2][3]"},
		"Empty":    {"The whole object.", nil, "(the whole object)"},
		"EmptyKey": {"An empty key is quoted.", []seg{{key: "data"}, {key: ""}}, `data[""]`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			assert.Check(t, gtcmp.DeepEqual(tc.want, pathString(tc.path)), "%s\npathString(...)", tc.reason)
		})
	}
}

// TestNumbersNormalized: objects built in Go may hold int or float32;
// copied values come out as int64 and float64 like decoded ones.
func TestNumbersNormalized(t *testing.T) {
	src := object.New(map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "ns"},
		"spec":     map[string]any{"n": []any{int(1), int32(2), uint8(3), float32(0.5), uint64(1 << 63)}},
	})
	user := object.New(map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "u", "namespace": "ns"},
		"data":     map[string]any{"v": map[string]any{"getValueFrom": map[string]any{"kind": "Widget", "name": "w", "path": "{.spec.n}"}}},
	})
	if err := Resolve([]*object.Object{user}, []*object.Object{src}, Options{}); err != nil {
		t.Fatal(err)
	}
	want := []any{int64(1), int64(2), int64(3), 0.5, float64(1 << 63)}
	assert.Check(t, gtcmp.DeepEqual(want, object.Get(user.Map, "data", "v")), "Resolve(...)")
}

// TestSecretCopyCallback: SecretCopy is told of every field whose value
// came out of a Secret, with the value as written (a map copied whole, a
// transformed value, a value reached through another object), and of
// nothing else.
func TestSecretCopyCallback(t *testing.T) {
	o := decodeStream(t, `
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: ns}
stringData: {user: orders, password: hunter2hunter2}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: whole, namespace: ns}
data:
  m: {getValueFrom: {kind: Secret, name: db, path: '{.stringData}'}}
  b64: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.password}', format-transformers: [StringToBase64]}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: chain, namespace: ns}
data:
  json: {getValueFrom: {kind: ConfigMap, name: whole, path: '{.data.m}', format-transformers: [ObjectToJson]}}
  name: {getValueFrom: {kind: ConfigMap, name: whole, path: '{.metadata.name}'}}
`)
	got := map[string]any{}
	err := Resolve(o, nil, Options{SecretCopy: func(obj *object.Object, field string, v any) {
		got[obj.Name()+" "+field] = v
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"whole data.m":    map[string]any{"user": "orders", "password": "hunter2hunter2"},
		"whole data.b64":  "aHVudGVyMmh1bnRlcjI=",
		"chain data.json": `{"password":"hunter2hunter2","user":"orders"}`,
	}
	assert.Check(t, gtcmp.DeepEqual(want, got))
}

// TestTransformErrorHidesSecret: a transformer failing on a value read out
// of a Secret (directly or through another object) does not quote it; on
// any other value it does.
func TestTransformErrorHidesSecret(t *testing.T) {
	objs := `
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: ns}
stringData: {password: hunter2hunter2, short: abc, port: "5432", long: ` + strings.Repeat("x", 100) + `}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: copy, namespace: ns}
data:
  pw: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.password}'}}
  port: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.port}', format-transformers: [StringToInt]}}
  plain: not-a-number
---
apiVersion: v1
kind: ConfigMap
metadata: {name: bad, namespace: ns}
data:
  direct: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.short}', format-transformers: [StringToInt]}}
  b64: {getValueFrom: {kind: Secret, name: db, path: '{.stringData.long}', format-transformers: [Base64ToString]}}
  chain: {getValueFrom: {kind: ConfigMap, name: copy, path: '{.data.pw}', format-transformers: [StringToInt]}}
  plain: {getValueFrom: {kind: ConfigMap, name: copy, path: '{.data.plain}', format-transformers: [StringToInt]}}
  number: {getValueFrom: {kind: ConfigMap, name: copy, path: '{.data.port}', format-transformers: [Base64ToString]}}
`
	err := Resolve(decodeStream(t, objs), nil, Options{})
	if err == nil {
		t.Fatal("want errors")
	}
	msg := err.Error()
	for _, secret := range []string{"hunter2", `"abc"`, "xxxxxxxx", "5432"} {
		if strings.Contains(msg, secret) {
			t.Errorf("the error quotes the secret %s:\n%s", secret, msg)
		}
	}
	if !strings.Contains(msg, `"not-a-number" is not an integer`) || strings.Count(msg, "(secret value hidden)") != 4 {
		t.Errorf("want the plain value quoted and four values hidden:\n%s", msg)
	}
}
