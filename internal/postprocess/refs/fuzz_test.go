package refs

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	gtcmp "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// fuzzPlaces are the fields where FuzzResolve puts the fuzzed reference.
var fuzzPlaces = [][]string{
	{"data", "v"},
	{"metadata", "name"},
	{"metadata", "namespace"},
	{"metadata", "labels", "x"},
	{"kind"},
}

// FuzzResolve resolves one fuzzed getValueFrom (YAML text), placed in one
// of several fields of a ConfigMap among objects that read it and are read
// by it. Resolve must not panic; it fails with typed errors only and then
// leaves the objects unchanged; on success no reference is left and every
// number is an int64 or a float64. Lookup objects never change.
func FuzzResolve(f *testing.F) {
	seeds := []string{
		`{kind: ConfigMap, name: settings, path: '{.data.host}'}`,
		`{kind: cm, name: settings, namespace: elsewhere, path: '{.data.host}', format-transformers: [ToString, StringToBase64, Base64ToString]}`,
		`{kind: Service, name: db, path: '{.spec.ports[?(@.name=="http")].port}', format-transformers: [ToString]}`,
		`{kind: Service, name: db, path: '{.spec.ports[?(@.name=="grpc")].port}'}`,
		`{kind: Service, name: db, path: '{.spec.ports[7].port}'}`,
		`{kind: Service, name: db, path: '{.spec.ports[-9:2:-1]}'}`,
		`{kind: svc, apiVersion: serving.knative.dev/v1, name: db, path: '{..name}'}`,
		`{kind: ConfigMap, labels: {app: db}, path: '{.data.hosts}', format-transformers: [JsonToObject, ArrayToCSString]}`,
		`{kind: ConfigMap, labels: {tier: backend}, path: '{.data}'}`,
		`{kind: ConfigMap, name: x, labels: {a: b}, path: '{.data}'}`,
		`{kind: ConfigMap, path: '{.data}'}`,
		`{kind: Thing, name: t, path: '{.spec.from}'}`,
		`{kind: wdg, name: w, path: '{.spec.nested}', format-transformers: [ObjectToJson, JsonToObject]}`,
		`{kind: region, name: eu, namespace: x, path: '{.spec.zone}'}`,
		`{kind: ConfigMap, name: fuzz, path: '{.data}'}`,
		`{kind: ConfigMap, name: chain, path: '{.data.c}'}`,
		`{kind: Secret, name: s, path: '{.data.k}', format-transformers: [Base64ToString, StringToInt32]}`,
		`{kind: Nope, name: x, path: '{.a}', defaultValue: {a: [1, 2.5]}}`,
		`{kind: ConfigMap, name: settings, path: '{.data.port}', format-transformers: [StringToInt, ToString, StringToFloat, ToString, StringToBool]}`,
		`{kind: ConfigMap, name: settings, path: '{range .data}{end}'}`,
		`{kind: ConfigMap, name: settings, path: '{.data.tls\.key}'}`,
		`{kind: ConfigMap, name: settings, path: '{.data[?(@ > 1)]}'}`,
		`{kind: ConfigMap, name: settings, path: '{.metadata.labels[*]}'}`,
		`{kind: 1, name: [x], path: {a: b}, labels: z}`,
		`[getValueFrom]`,
		`null`,
		`{}`,
	}
	for i, s := range seeds {
		f.Add(s, uint8(i%len(fuzzPlaces)))
	}
	f.Fuzz(func(t *testing.T, specText string, place uint8) {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(specText), &n); err != nil {
			return
		}
		untimestamp(&n)
		var spec any
		if err := n.Decode(&spec); err != nil {
			return
		}
		if hasAnyKeyMap(spec) { // kudo-render's decoders make every mapping map[string]any
			return
		}
		spec = copyValue(spec)
		objs := decodeStream(t, `
apiVersion: v1
kind: ConfigMap
metadata: {name: fuzz, namespace: app, labels: {x: y}}
data: {v: v, w: plain}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: chain, namespace: app}
data: {c: {getValueFrom: {kind: cm, name: fuzz, path: '{.data.v}', defaultValue: d}}}
---
apiVersion: v1
kind: Secret
metadata: {name: s, namespace: app}
data: {k: MTIz}
`)
		p := fuzzPlaces[int(place)%len(fuzzPlaces)]
		parent := object.EnsureMap(objs[0].Map, p[:len(p)-1]...)
		parent[p[len(p)-1]] = map[string]any{"getValueFrom": spec}
		lookup := decodeStream(t, world)
		beforeObjs, beforeLookup := deepCopyAll(objs), deepCopyAll(lookup)

		err := Resolve(objs, lookup, Options{Warn: func(string) {}})

		assert.Assert(t, gtcmp.DeepEqual(beforeLookup, mapsOf(lookup)), "lookup objects changed")
		if err != nil {
			for _, e := range leafErrors(err) {
				if c := errClass(e); strings.HasPrefix(c, "untyped") {
					t.Fatalf("error of no class (%s): %v", c, e)
				}
				if e.Error() == "" {
					t.Fatalf("empty error message")
				}
			}
			assert.Assert(t, gtcmp.DeepEqual(beforeObjs, mapsOf(objs)), "objects changed although Resolve failed (%v)", err)
			return
		}
		for _, o := range objs {
			if hasRef(o.Map, seg{}, false) {
				t.Fatalf("a reference is left after success: %v", o.Map)
			}
			if bad := badType(o.Map); bad != "" {
				t.Fatalf("value of type %s in the result: %v", bad, o.Map)
			}
		}
	})
}

// badType returns the type of a value that a decoded object cannot hold.
func badType(v any) string {
	switch t := v.(type) {
	case map[string]any:
		for _, x := range t {
			if b := badType(x); b != "" {
				return b
			}
		}
	case []any:
		for _, x := range t {
			if b := badType(x); b != "" {
				return b
			}
		}
	case string, int64, float64, bool, nil:
	default:
		return fmt.Sprintf("%T", t)
	}
	return ""
}

// hasAnyKeyMap tells whether v holds a map[any]any, which yaml.v3 makes
// for a mapping with a key that is no string ({0: x}) and which no
// decoder of kudo-render produces (they keep the key's text).
func hasAnyKeyMap(v any) bool {
	switch t := v.(type) {
	case map[any]any:
		return true
	case map[string]any:
		for _, x := range t {
			if hasAnyKeyMap(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasAnyKeyMap(x) {
				return true
			}
		}
	}
	return false
}
