package strictyaml_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

func ExampleDecode() {
	type meta struct {
		Name    string `yaml:"name"`
		Version string `yaml:"version"`
	}
	var p strictyaml.Problems
	var m meta
	n := strictyaml.Parse("framework.yaml", []byte("name: web\nversoin: 1\n"), &p)
	strictyaml.Decode("framework.yaml", n, &m, &p)
	fmt.Println(m.Name, p.Err("cannot load framework \"web\""))
	// Output: web cannot load framework "web": framework.yaml:2: unknown field "versoin"; did you mean "version"?
}
