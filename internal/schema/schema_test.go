package schema

import (
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/bundle"
)

// hostileTimeout is how long any single hostile input may take.
const hostileTimeout = 5 * time.Second

// within runs f in a goroutine and fails the test when it takes longer
// than d: a hang on hostile input is a failure, not a stuck test run. f
// must not use t (FailNow only works on the test's goroutine): it stores
// its results for the caller to check once within returns.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not finish within %v", d)
	}
}

// violationsOf returns the violations of a *ValidationError (nil for a nil
// error), failing the test for any other error.
func violationsOf(t *testing.T, err error) []Violation {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %T: %v", err, err)
	}
	if len(ve.Violations) == 0 {
		t.Fatalf("*ValidationError without violations")
	}
	out := slices.Clone(ve.Violations)
	for i := range out {
		out[i].Ref = nil // compared by Resource; TestValidationErrorDiagnostics checks Ref
	}
	return out
}

// problemsOf returns the problems of a *SchemaError or *DefinitionsError
// (nil for a nil error), failing the test for any other error.
func problemsOf(t *testing.T, err error) []Problem {
	t.Helper()
	if err == nil {
		return nil
	}
	var list []*Problem
	var se *SchemaError
	var de *DefinitionsError
	switch {
	case errors.As(err, &se):
		list = se.Problems
	case errors.As(err, &de):
		list = de.Problems
	default:
		t.Fatalf("want *SchemaError or *DefinitionsError, got %T: %v", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("%T without problems", err)
	}
	out := make([]Problem, len(list))
	for i, p := range list {
		out[i] = *p
	}
	return out
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWriteOnlyParams: the parameters params.schema.json marks writeOnly,
// directly or through a $ref, an extension's property replacing its
// base's.
func TestWriteOnlyParams(t *testing.T) {
	b := &bundle.Bundle{
		BaseParamsSchemas: [][]byte{[]byte(`{"properties": {"A": {"writeOnly": true}, "B": {"writeOnly": true}, "C": {"type": "string"}}}`)},
		ParamsSchema: []byte(`{"$defs": {"pw": {"type": "string", "writeOnly": true}}, "properties": {
			"B": {"type": "string"}, "D": {"$ref": "#/$defs/pw"}, "E": {"writeOnly": false}, "F": {"$ref": "#/$defs/missing"}}}`),
	}
	got := WriteOnlyParams(b)
	if want := []string{"A", "D"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := WriteOnlyParams(&bundle.Bundle{ParamsSchema: []byte(`{not json`)}); got != nil {
		t.Errorf("an unreadable schema marks %v", got)
	}
}
