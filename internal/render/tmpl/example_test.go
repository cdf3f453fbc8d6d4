package tmpl_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/render/tmpl"
)

func ExampleRender() {
	src := []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Name }}
data:
  replicas: {{ .Params.REPLICAS | quote }}
`)
	out, err := tmpl.Render("templates/cm.yaml", src, map[string]any{"Name": "web", "Params": map[string]any{"REPLICAS": "3"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	docs, err := tmpl.Decode(out)
	fmt.Println(docs[0].Map["data"], err)

	// Templates are hermetic: no clock, no environment.
	_, err = tmpl.Render("templates/bad.yaml", []byte("{{ now }}"), nil)
	fmt.Println(err)
	// Output:
	// map[replicas:3] <nil>
	// templates/bad.yaml:1: function "now" not defined; Sprig's "now" is not among the functions kudo-render offers
}
