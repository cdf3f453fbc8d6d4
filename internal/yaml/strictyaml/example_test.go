package strictyaml_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/limits"
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
	// Output: web cannot load framework "web": framework.yaml:2: versoin: unknown field "versoin"; did you mean "version"?
}

func ExampleStream() {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
	for _, err := range strictyaml.Stream("params.yaml", []byte("x: \x00\n")) {
		fmt.Println(err)
	}
	limits.SetCurrent(limits.Limits{YAMLValues: 1000})
	defer limits.SetCurrent(limits.Limits{})
	for _, err := range strictyaml.Stream("params.yaml", []byte(bomb)) {
		fmt.Println(err)
	}
	// Output:
	// params.yaml:1:4: holds a NUL byte (YAML text is UTF-8 of printable characters, tabs and line breaks)
	// params.yaml:3:33: alias *b (aliases expanded): YAML values exceeds the limit of 1000 values (raise it with --max-yaml-values or KUDO_RENDER_MAX_YAML_VALUES)
}
