package params_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params"
)

func ExampleResolve() {
	defs := []*bundle.Param{
		{Name: "REPLICAS", Type: bundle.TypeInteger, Default: 3, Required: true},
		{Name: "MODE", Default: "small", Enum: []any{"small", "large"}, Required: true},
	}
	values, err := params.Resolve(defs, map[string]any{"REPLICAS": "5"})
	fmt.Println(values, err)

	_, err = params.Resolve(defs, map[string]any{"REPLICAS": "five", "mode": "large"})
	fmt.Println(err)
	// Output:
	// map[MODE:small REPLICAS:5] <nil>
	// invalid parameters:
	//   REPLICAS: "five" is not an integer
	//   mode: is not defined by the package; did you mean MODE?
}
