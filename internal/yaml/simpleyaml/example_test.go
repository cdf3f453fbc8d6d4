package simpleyaml_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/yaml/simpleyaml"
)

func ExampleParse() {
	roots, ok := simpleyaml.Parse([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  replicas: \"3\"\n"))
	data := roots[0].Content[7] // the value of the fourth key, data
	fmt.Println(ok, len(roots), roots[0].Content[6].Value, data.Content[1].Value, data.Content[1].Tag, data.Content[1].Line)
	_, ok = simpleyaml.Parse([]byte("a: {b: 1} # flow style is go-yaml's\n"))
	fmt.Println(ok)
	// Output:
	// true 1 data 3 !!str 6
	// false
}
