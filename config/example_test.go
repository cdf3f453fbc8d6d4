package config_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/config"
)

func ExampleParse() {
	_, err := config.Parse("render.yaml", ".", []byte(`apiVersion: kudorender.dev/v1alpha1
kind: FrameworkRender
metadata: {name: Shop}
spec:
  framework: {path: web}
  tagret: plain
`))
	fmt.Println(err)
	// Output:
	// invalid FunctionConfig render.yaml: 2 problems:
	//   render.yaml:6: spec.tagret: unknown field "tagret"; did you mean "target"?
	//   render.yaml:3: metadata.name: "Shop" is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', each part starting and ending with a letter or digit)
}
