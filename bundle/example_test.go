package bundle_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
)

func ExampleLoad() {
	fsys := fstest.MapFS{
		"framework.yaml": {Data: []byte(`name: web
version: "1.0"
tasks:
  app: {resources: [cm.yaml]}
plans:
  deploy:
    steps: [{name: app, tasks: [app]}]
`)},
		"params.yaml":       {Data: []byte("replicas: {default: \"2\", type: integer}\n")},
		"templates/cm.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n")},
	}
	b, err := bundle.Load(fsys, "web")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.ID(), b.Format, len(b.Tasks), b.Param("replicas").Type)

	// Strict decoding: an unknown field is an error with its line.
	fsys["framework.yaml"] = &fstest.MapFile{Data: []byte("name: web\nversion: \"1.0\"\ntaks: {}\n")}
	_, err = bundle.Load(fsys, "web")
	fmt.Println(err)
	// Output:
	// web@1.0 framework 1 integer
	// cannot load framework "web": framework.yaml:3: taks: unknown field "taks"; did you mean "tasks"?
}
