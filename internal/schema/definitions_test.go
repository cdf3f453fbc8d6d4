package schema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/kudo-render/kudo-render/bundle"
)

// testDefinitions returns the files of testdata/definitions, as
// Bundle.Definitions holds them.
func testDefinitions(t *testing.T) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir("testdata/definitions")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("testdata/definitions", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

// loadTestDefinitions loads testdata/definitions.
func loadTestDefinitions(t *testing.T) []*Definition {
	t.Helper()
	defs, err := LoadDefinitions(&bundle.Bundle{Definitions: testDefinitions(t)})
	if err != nil {
		t.Fatalf("LoadDefinitions(testdata/definitions): %v", err)
	}
	return defs
}

// header is a valid definition without its schema.
const header = "name: Topic\nslugSingular: topic\nslugPlural: topics\nversion: v1\nscope: namespaced\n"

func TestLoadDefinitions(t *testing.T) {
	type want struct {
		defs     []*Definition
		problems []Problem
	}
	cases := map[string]struct {
		reason string
		files  map[string][]byte
		want   want
	}{
		"Valid": {
			reason: "Several documents per file and several files load, sorted by slugPlural and version, with canonical schemas and unique fields.",
			files:  testDefinitions(t),
			want: want{defs: []*Definition{
				{
					Name: "KafkaUser", SlugSingular: "kafka-user", SlugPlural: "kafka-users", Version: "v1alpha1", Scope: "cluster",
					Schema: json.RawMessage(`{"properties":{"email":{"format":"email","type":"string"},"principal":{"minLength":3,"type":"string"},` +
						`"quota":{"properties":{"bytesPerSecond":{"type":"integer"},"clientId":{"type":"string"}},"type":"object"}},` +
						`"type":"object","unique":["principal","quota.clientId"]}`),
					Unique: []string{"principal", "quota.clientId"}, File: "definitions/user.yaml", Line: 1,
				},
				{
					Name: "Topic", SlugSingular: "topic", SlugPlural: "topics", Version: "v1", Scope: "namespaced",
					Schema: json.RawMessage(`{"additionalProperties":false,"properties":{"config":{"additionalProperties":{"type":"string"},"type":"object"},` +
						`"partitions":{"minimum":1,"type":"integer"},"retention":{"format":"duration","type":"string"},` +
						`"topicName":{"pattern":"^[a-z][a-z0-9.-]*$","type":"string"}},"required":["topicName","partitions"],"type":"object","unique":["topicName"]}`),
					Unique: []string{"topicName"}, File: "definitions/topic.yaml", Line: 2,
				},
				{
					Name: "Topic", SlugSingular: "topic", SlugPlural: "topics", Version: "v2", Scope: "namespaced",
					Schema: json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","properties":{"partitions":{"default":3,"minimum":1,"type":"integer"},` +
						`"topicName":{"type":"string"}},"required":["topicName"],"type":"object","unique":["topicName"]}`),
					Unique: []string{"topicName"}, File: "definitions/topic.yaml", Line: 26,
				},
			}},
		},
		"BadSlugsAndScope": {
			reason: "Slugs must be lowercase words joined by single hyphens, the scope namespaced or cluster, the version a Kubernetes version, the name a kind; all problems are reported.",
			files: map[string][]byte{"bad.yaml": []byte(
				"name: topic\nslugSingular: Topic\nslugPlural: my--topics\nversion: 1.0\nscope: Namespaced\nschema: {type: object}\n")},
			want: want{problems: []Problem{
				{File: "definitions/bad.yaml", Line: 1, Field: "name", Msg: `"topic" is not valid: want a kind in UpperCamelCase such as Topic`},
				{File: "definitions/bad.yaml", Line: 2, Field: "slugSingular", Msg: `"Topic" is not valid: want lowercase letters and digits in words joined by single hyphens, as ^[a-z0-9]+(?:-[a-z0-9]+)*$`},
				{File: "definitions/bad.yaml", Line: 3, Field: "slugPlural", Msg: `"my--topics" is not valid: want lowercase letters and digits in words joined by single hyphens, as ^[a-z0-9]+(?:-[a-z0-9]+)*$`},
				{File: "definitions/bad.yaml", Line: 4, Field: "version", Msg: `"1.0" is not valid: want a Kubernetes API version such as v1, v2beta1 or v1alpha1`},
				{File: "definitions/bad.yaml", Line: 5, Field: "scope", Msg: `"Namespaced" is not valid: want namespaced or cluster`},
			}},
		},
		"UnknownFieldWithLine": {
			reason: "Decoding is strict: an unknown field is reported with its file, line and the field's place.",
			files:  map[string][]byte{"t.yaml": []byte(header + "descripton: typo\nschema: {type: object}\n")},
			want: want{problems: []Problem{
				{File: "definitions/t.yaml", Line: 6, Field: "descripton", Msg: `unknown field "descripton"`},
			}},
		},
		"MissingFields": {
			reason: "Every field is required.",
			files:  map[string][]byte{"t.yaml": []byte("name: Topic\n")},
			want: want{problems: []Problem{
				{File: "definitions/t.yaml", Line: 1, Field: "slugSingular", Msg: "is required"},
				{File: "definitions/t.yaml", Line: 1, Field: "slugPlural", Msg: "is required"},
				{File: "definitions/t.yaml", Line: 1, Field: "version", Msg: "is required"},
				{File: "definitions/t.yaml", Line: 1, Field: "scope", Msg: "is required (namespaced or cluster)"},
				{File: "definitions/t.yaml", Line: 1, Field: "schema", Msg: "is required (the JSON Schema of the resources' spec)"},
			}},
		},
		"Duplicate": {
			reason: "(slugPlural, version), (slugSingular, version) and (name, version) are unique across files.",
			files: map[string][]byte{
				"a.yaml": []byte(header + "schema: {type: object}\n"),
				"b.yaml": []byte("name: Topic\nslugSingular: topic\nslugPlural: topics\nversion: v1\nscope: namespaced\nschema: {}\n"),
			},
			want: want{problems: []Problem{
				{File: "definitions/b.yaml", Line: 1, Field: "slugPlural", Msg: `slugPlural "topics" with version v1 is already defined in definitions/a.yaml:1`},
				{File: "definitions/b.yaml", Line: 1, Field: "slugSingular", Msg: `slugSingular "topic" with version v1 is already defined in definitions/a.yaml:1`},
				{File: "definitions/b.yaml", Line: 1, Field: "name", Msg: `name "Topic" with version v1 is already defined in definitions/a.yaml:1`},
			}},
		},
		"VersionsDisagree": {
			reason: "The versions of one slugPlural share its name, slugSingular and scope: they are one list in templates.",
			files: map[string][]byte{"a.yaml": []byte(header + "schema: {}\n---\n" +
				"name: Topic\nslugSingular: topic\nslugPlural: topics\nversion: v2\nscope: cluster\nschema: {}\n")},
			want: want{problems: []Problem{
				{File: "definitions/a.yaml", Line: 8, Msg: "version v2 of topics is Topic (topic, cluster) but version v1 in definitions/a.yaml:1 is Topic (topic, namespaced): every version of a definition keeps its name, slugSingular and scope"},
			}},
		},
		"SchemaDoesNotCompile": {
			reason: "Schema problems name the line and the JSON pointer inside the schema.",
			files:  map[string][]byte{"t.yaml": []byte(header + "schema:\n  type: object\n  properties:\n    size:\n      type: integr\n    name:\n      pattern: '(['\n")},
			want: want{problems: []Problem{
				{File: "definitions/t.yaml", Line: 12, Field: "schema/properties/name/pattern", Msg: "is not a valid schema: '([' is not valid regex: error parsing regexp: missing closing ]: `[`"},
				{File: "definitions/t.yaml", Line: 10, Field: "schema/properties/size/type", Msg: "is not a valid schema: 'anyOf' failed: (1) value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; (2) got string, want array"},
			}},
		},
		"BadUnique": {
			reason: "unique is a list of distinct dot paths, top level only, naming fields the schema allows.",
			files: map[string][]byte{"t.yaml": []byte(header + "schema:\n  additionalProperties: false\n  properties: {a: {type: string}, b: {properties: {c: {}}, additionalProperties: false}}\n" +
				"  unique: [a, a, 'b..c', b.d, e, 3]\n")},
			want: want{problems: []Problem{
				{File: "definitions/t.yaml", Line: 9, Field: "schema/unique/1", Msg: `lists "a" twice`},
				{File: "definitions/t.yaml", Line: 9, Field: "schema/unique/2", Msg: "must be a dot path of field names such as topicName or target.port"},
				{File: "definitions/t.yaml", Line: 9, Field: "schema/unique/3", Msg: `"b.d" names a field that the schema does not allow ("d" is not among its properties)`},
				{File: "definitions/t.yaml", Line: 9, Field: "schema/unique/4", Msg: `"e" names a field that the schema does not allow ("e" is not among its properties)`},
				{File: "definitions/t.yaml", Line: 9, Field: "schema/unique/5", Msg: "must be a dot path of field names such as topicName or target.port"},
			}},
		},
		"NestedUnique": {
			reason: "unique below the top level would silently do nothing: it is an error.",
			files:  map[string][]byte{"t.yaml": []byte(header + "schema:\n  properties:\n    a:\n      unique: [x]\n")},
			want: want{problems: []Problem{
				{File: "definitions/t.yaml", Line: 9, Field: "schema/properties/a/unique", Msg: "the unique keyword is only allowed at the top level of a resource definition's schema"},
			}},
		},
		"UnknownFormat": {
			reason: "With format assertions on, an unknown format is an error rather than a silent no-op.",
			files:  map[string][]byte{"t.yaml": []byte(header + "schema:\n  properties:\n    mail: {format: emial}\n")},
			want: want{problems: []Problem{
				{File: "definitions/t.yaml", Line: 8, Field: "schema/properties/mail/format", Msg: `unknown format "emial"`},
			}},
		},
		"SchemaNotAMapping": {
			reason: "A definition's schema is a JSON Schema object.",
			files:  map[string][]byte{"t.yaml": []byte(header + "schema: [a]\n")},
			want: want{problems: []Problem{
				{File: "definitions/t.yaml", Line: 6, Field: "schema", Msg: "must be a mapping (a JSON Schema object), not an array"},
			}},
		},
		"OtherFilesAndEmpty": {
			reason: "Only YAML and JSON files are definitions; an empty one defines nothing; YAML syntax errors have lines.",
			files: map[string][]byte{
				"README.md":  []byte("# topics"),
				"empty.yaml": []byte("# nothing\n---\n"),
				"broken.yml": []byte("name: [\n"),
			},
			want: want{problems: []Problem{
				{File: "definitions/README.md", Msg: "is not a definition file (want .yaml, .yml or .json)"},
				{File: "definitions/broken.yml", Line: 1, Msg: "did not find expected node content"},
				{File: "definitions/empty.yaml", Msg: "defines nothing (the file is empty)"},
			}},
		},
		"JSONFile": {
			reason: "A .json file is YAML too.",
			files: map[string][]byte{"t.json": []byte(`{"name": "Topic", "slugSingular": "topic", "slugPlural": "topics", "version": "v1", "scope": "cluster",
				"schema": {"type": "object", "properties": {"n": {"type": "number", "maximum": 1.50}}}}`)},
			want: want{defs: []*Definition{{
				Name: "Topic", SlugSingular: "topic", SlugPlural: "topics", Version: "v1", Scope: "cluster",
				Schema: json.RawMessage(`{"properties":{"n":{"maximum":1.50,"type":"number"}},"type":"object"}`),
				File:   "definitions/t.json", Line: 1,
			}}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := LoadDefinitions(&bundle.Bundle{Definitions: tc.files})
			assert.Check(t, is.DeepEqual(tc.want.problems, problemsOf(t, err)), "%s\nLoadDefinitions(...)", tc.reason)
			assert.Check(t, is.DeepEqual(tc.want.defs, got, cmpopts.EquateEmpty()), "%s\nLoadDefinitions(...)", tc.reason)
		})
	}
}

func TestDefinitionDigestIgnoresLayout(t *testing.T) {
	// The same schema in YAML block style, flow style and JSON, with other
	// key order: one digest, as the lock needs.
	files := map[string][]byte{
		"a.yaml": []byte(header + "schema:\n  type: object\n  properties:\n    n: {type: integer, minimum: 1}\n"),
		"b.yaml": []byte(header + "schema: {properties: {n: {minimum: 1, type: integer}}, type: object}\n"),
		"c.json": []byte(`{"name":"Topic","slugSingular":"topic","slugPlural":"topics","version":"v1","scope":"namespaced","schema":{"properties":{"n":{"minimum":1,"type":"integer"}},"type":"object"}}`),
	}
	var digests []string
	for name, data := range files {
		defs, err := LoadDefinitions(&bundle.Bundle{Definitions: map[string][]byte{name: data}})
		if err != nil {
			t.Fatalf("LoadDefinitions(%s): %v", name, err)
		}
		d, err := Digest(defs[0].Schema)
		if err != nil {
			t.Fatal(err)
		}
		digests = append(digests, d)
	}
	for _, d := range digests[1:] {
		if d != digests[0] {
			t.Errorf("digests differ across layouts: %v", digests)
		}
	}
}
