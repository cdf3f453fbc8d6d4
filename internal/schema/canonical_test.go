package schema

import (
	"encoding/json"
	"math"
	"testing"

	"go.yaml.in/yaml/v3"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestCanonical(t *testing.T) {
	type want struct {
		JSON string
		Err  string
	}
	yamlDoc := func(s string) any {
		var v any
		if err := yaml.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := map[string]struct {
		reason string
		in     any
		want   want
	}{
		"SortedCompact": {
			reason: "Keys are sorted at every level and insignificant whitespace goes.",
			in:     []byte("{\n  \"b\": [3, {\"z\": 1, \"a\": 2}],\n  \"a\": null\n}\n"),
			want:   want{JSON: `{"a":null,"b":[3,{"a":2,"z":1}]}`},
		},
		"NumbersAsWritten": {
			reason: "A number keeps the text it was written with.",
			in:     []byte(`{"n": 1.50, "e": 1E+3, "i": 10000000000000000000001}`),
			want:   want{JSON: `{"e":1E+3,"i":10000000000000000000001,"n":1.50}`},
		},
		"NoHTMLEscaping": {
			reason: "<, > and & stay as they are (patterns are full of them); control characters are escaped.",
			in:     []byte(`{"pattern": "^<[a-z]+>&$", "s": "tab\there", "u": "\u00e9"}`),
			want:   want{JSON: `{"pattern":"^<[a-z]+>&$","s":"tab\there","u":"é"}`},
		},
		"YAMLDecoded": {
			reason: "A value decoded from YAML (ints, floats, bools) is written in its shortest decimal form.",
			in:     yamlDoc("b: true\nf: 1.5\ni: 1000000\nbig: 1e6\nl: [x, 2]\n"),
			want:   want{JSON: `{"b":true,"big":1000000,"f":1.5,"i":1000000,"l":["x",2]}`},
		},
		"MapAnyAny": {
			reason: "map[any]any with scalar keys, as yaml.v2 decodes, is an object.",
			in:     map[any]any{"b": 1, 2: "two"},
			want:   want{JSON: `{"2":"two","b":1}`},
		},
		"Struct": {
			reason: "Other types go through encoding/json.",
			in:     struct{ B, A int }{B: 1, A: 2},
			want:   want{JSON: `{"A":2,"B":1}`},
		},
		"RawMessage": {
			reason: "json.RawMessage is JSON text.",
			in:     json.RawMessage(`[ 1 , "a" ]`),
			want:   want{JSON: `[1,"a"]`},
		},
		"DuplicateKey": {
			reason: "JSON text with a key written twice is refused.",
			in:     []byte(`{"a": 1, "a": 2}`),
			want:   want{Err: `line 1: duplicate key "a"`},
		},
		"TrailingData": {
			reason: "JSON text is one value.",
			in:     []byte(`{} {}`),
			want:   want{Err: "line 1: unexpected data after the JSON value"},
		},
		"NaN": {
			reason: "NaN is no JSON number.",
			in:     map[string]any{"x": math.NaN()},
			want:   want{Err: "/x: NaN is not a JSON number"},
		},
		"BadNumber": {
			reason: "A json.Number must hold a JSON number.",
			in:     []any{json.Number("0x10")},
			want:   want{Err: `/0: "0x10" is not a JSON number`},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := Canonical(tc.in)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			assert.Check(t, is.DeepEqual(tc.want, want{JSON: string(got), Err: gotErr}), "%s\nCanonical(...)", tc.reason)
		})
	}
}

func TestDigest(t *testing.T) {
	const a = `{"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}`
	const reordered = "{\n  \"properties\": {\n    \"n\": {\"minimum\": 1,\n \"type\": \"integer\"}\n  },\n  \"type\": \"object\"\n}\n"
	const changed = `{"type": "object", "properties": {"n": {"type": "integer", "minimum": 2}}}`

	cases := map[string]struct {
		reason string
		x, y   string
		same   bool
	}{
		"KeyOrderAndWhitespace": {reason: "Key order and whitespace do not change the digest.", x: a, y: reordered, same: true},
		"ChangedSchema":         {reason: "Any change of content changes the digest.", x: a, y: changed},
		"NumberSpelling":        {reason: "Numbers are compared as written: 1 and 1.0 are different schema text.", x: `{"minimum": 1}`, y: `{"minimum": 1.0}`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dx, err := Digest([]byte(tc.x))
			if err != nil {
				t.Fatal(err)
			}
			dy, err := Digest([]byte(tc.y))
			if err != nil {
				t.Fatal(err)
			}
			if (dx == dy) != tc.same {
				t.Errorf("%s\nDigest(x) = %s, Digest(y) = %s, want same: %v", tc.reason, dx, dy, tc.same)
			}
		})
	}

	// The digest is the SHA-256 of the canonical text, spelt sha256:<hex>.
	got, err := Digest([]byte(" { } "))
	if err != nil {
		t.Fatal(err)
	}
	if want := "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"; got != want {
		t.Errorf("Digest({}) = %s, want %s", got, want)
	}
	if _, err := Digest([]byte(`{"a":`)); err == nil {
		t.Errorf("Digest(truncated JSON): want error")
	}
}
