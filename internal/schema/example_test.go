package schema_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/schema"
)

func ExampleValidateParams() {
	b := &bundle.Bundle{Name: "kafka", Version: "1.0", ParamsSchema: []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "properties": {"BROKERS": {"type": "integer", "minimum": 1, "maximum": 9}}
}`)}
	fmt.Println(schema.ValidateParams(b, map[string]any{"BROKERS": 3}))
	fmt.Println(schema.ValidateParams(b, map[string]any{"BROKERS": 12}))
	// Output:
	// <nil>
	// invalid parameter /BROKERS: maximum: got 12, want 9
}
