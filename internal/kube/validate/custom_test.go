package validate_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
)

// widgetCRD defines Widget with what custom resources meet at the API
// server: a status and a scale subresource, defaults, a CEL rule, list
// types, an embedded resource, int-or-string, formats, a field that keeps
// unknown fields and a nullable one.
const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.cr.example.com}
spec:
  group: cr.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}, scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "self.size <= 10", message: too big}
            properties:
              size: {type: integer, default: 1}
              replicas: {type: integer}
              name: {type: string, maxLength: 5}
              mode: {type: string, enum: [a, b]}
              port: {x-kubernetes-int-or-string: true}
              email: {type: string, format: email}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
              tpl: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, required: [name], properties: {name: {type: string}, port: {type: integer}}}
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              args: {type: array, items: {type: string}}
              opt: {type: string, nullable: true}
          status: {type: object, properties: {replicas: {type: integer}}}
`

// widget is a Widget with the metadata and spec given (flow mappings),
// and more top-level fields.
func widget(metadata, spec, more string) string {
	return widgetCRD + "---\napiVersion: cr.example.com/v1\nkind: Widget\nmetadata: " + metadata + "\nspec: " + spec + "\n" + more
}

// problems validates src and returns "field: message" of every problem.
func problems(t *testing.T, src string) []string {
	t.Helper()
	var out []string
	for _, ds := range validate.Objects(objects(t, src), validate.Options{}) {
		for _, d := range ds {
			out = append(out, d.Field+": "+d.Msg)
		}
	}
	return out
}

// TestCustomResources: a custom resource is refused exactly as the API
// server refuses it by server-side apply (each case is one of
// TestCustomResourcesAgree's, where the server says so).
func TestCustomResources(t *testing.T) {
	const md = "{name: w, namespace: ns}"
	cases := []struct {
		reason string
		src    string
		want   []string // a part of each problem, in order; none: valid
	}{
		{reason: "a valid widget", src: widget(md, "{size: 3}", "")},
		{reason: "a default fills a null", src: widget(md, "{size: null}", "")},
		{reason: "a fraction-less float is an integer, as JSON writes it", src: widget(md, "{size: 3.0}", "")},
		{reason: "a nullable field takes null", src: widget(md, "{opt: null}", "")},
		{reason: "a field that keeps unknown fields", src: widget(md, "{free: {a: {b: 1}}}", "")},
		{reason: "a dotted name is a DNS subdomain", src: widget("{name: a.b, namespace: ns}", "{}", "")},
		{reason: "the status is dropped on create", src: widget(md, "{}", "status: {replicas: -5}\n")},
		{reason: "a null label value", src: widget("{name: w, namespace: ns, labels: {a: null}}", "{}", "")},

		{reason: "an unknown field", src: widget(md, "{size: 3, colour: red}", ""),
			want: []string{"spec.colour: Forbidden: field not declared in schema"}},
		{reason: "an unknown top-level field", src: widget(md, "{}", "extra: 1\n"),
			want: []string{"extra: Forbidden: field not declared in schema"}},
		{reason: "an unknown metadata field", src: widget("{name: w, namespace: ns, foo: bar}", "{}", ""),
			want: []string{"metadata.foo: Forbidden: field not declared in schema"}},
		{reason: "an unknown field of an embedded resource's metadata", src: widget(md, "{tpl: {apiVersion: v1, kind: ConfigMap, metadata: {name: x, foo: 1}}}", ""),
			want: []string{"spec.tpl.metadata.foo: Forbidden: field not declared in schema"}},
		{reason: "an unknown field of the status", src: widget(md, "{}", "status: {foo: 1}\n"),
			want: []string{"status.foo: Forbidden"}},
		{reason: "a status value of the wrong type (server-side apply types it)", src: widget(md, "{}", "status: {replicas: foo}\n"),
			want: []string{`status.replicas: Invalid value: "foo": expected integer, got string`}},
		{reason: "null in a non-nullable field without default", src: widget(md, "{name: null}", ""),
			want: []string{"<nil>: Invalid value: null: some validation rules were not checked", "spec.name: Invalid value: \"null\": spec.name in body must be of type string"}},
		{reason: "a name that is no DNS subdomain", src: widget("{name: Not_Valid, namespace: ns}", "{}", ""),
			want: []string{`metadata.name: Invalid value: "Not_Valid": a lowercase RFC 1123 subdomain`}},
		{reason: "a label value of 64 characters", src: widget("{name: w, namespace: ns, labels: {a: "+strings.Repeat("x", 64)+"}}", "{}", ""),
			want: []string{"metadata.labels: Invalid value: \"" + strings.Repeat("x", 64) + "\": must be no more than 63 bytes"}},
		{reason: "a label value that is no string", src: widget("{name: w, namespace: ns, labels: {a: 1}}", "{}", ""),
			want: []string{"metadata.labels[a]: Invalid value: 1: expected a string"}},
		{reason: "a CEL rule broken", src: widget(md, "{size: 30}", ""),
			want: []string{"spec: Invalid value: too big"}},
		{reason: "two items of one key of a list-type map", src: widget(md, "{ports: [{name: a, port: 1}, {name: a, port: 2}]}", ""),
			want: []string{`spec.ports[1]: Duplicate value: {"name":"a"}`}},
		{reason: "a list-type set with an item twice", src: widget(md, "{tags: [x, x]}", ""),
			want: []string{`spec.tags[1]: Duplicate value: "x"`}},
		{reason: "an int-or-string that is a fraction", src: widget(md, "{port: 1.5}", ""),
			want: []string{"<nil>: Invalid value: null: some validation rules", "spec.port: Invalid value: \"number\": spec.port in body must be of type integer,string"}},
		{reason: "a format", src: widget(md, "{email: notanemail}", ""),
			want: []string{"<nil>: Invalid value: null", "spec.email: Invalid value: \"notanemail\": spec.email in body must be of type email"}},
		{reason: "an embedded resource without kind", src: widget(md, "{tpl: {metadata: {name: x}}}", ""),
			want: []string{"<nil>: Invalid value: null", "spec.tpl.apiVersion: Required value", "spec.tpl.kind: Required value"}},
		{reason: "negative replicas of the scale subresource", src: widget(md, "{replicas: -1}", ""),
			want: []string{".spec.replicas: Invalid value: -1: should be a non-negative integer"}},
		{reason: "an enum", src: widget(md, "{mode: c}", ""),
			want: []string{"<nil>: Invalid value: null", `spec.mode: Unsupported value: "c": supported values: "a", "b"`}},
	}
	for _, c := range cases {
		t.Run(c.reason, func(t *testing.T) {
			got := problems(t, c.src)
			assert.Assert(t, is.Len(got, len(c.want)), "%s", strings.Join(got, "\n"))
			for i, w := range c.want {
				assert.Assert(t, is.Contains(got[i], w))
			}
		})
	}
}

// TestCustomResourceOutputUnchanged: validating applies defaults and
// prunes a copy; the object rendered stays as it was.
func TestCustomResourceOutputUnchanged(t *testing.T) {
	objs := objects(t, widget("{name: w, namespace: ns}", "{size: null, colour: red}", "status: {replicas: 1}\n"))
	before := objs[1].DeepCopy().Map
	validate.Objects(objs, validate.Options{})
	assert.DeepEqual(t, before, objs[1].Map)
}
