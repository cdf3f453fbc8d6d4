package verify_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/verify"
)

func ExampleBundle() {
	b, err := bundle.Load(fstest.MapFS{
		"operator.yaml": {Data: []byte(`apiVersion: kudo.dev/v1beta1
name: web
operatorVersion: 0.1.0
tasks:
  - {name: app, kind: Apply, spec: {resources: [cm.yaml]}}
plans:
  deploy:
    strategy: serial
    phases: [{name: main, strategy: serial, steps: [{name: app, tasks: [app]}]}]
`)},
		"params.yaml":       {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: SIZE\n    default: small\n")},
		"templates/cm.yaml": {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"{{ .Name }}\"}\ndata: {size: \"{{ .Params.SIZ }}\"}\n")},
	}, "web")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range verify.Bundle(b) {
		fmt.Println(f)
	}
	// Output:
	// warning: params.yaml:3: parameter "SIZE" defined but not used
	// error: templates/cm.yaml:4: parameter "SIZ" is used but not defined in params.yaml
	// error: templates/cm.yaml:4: rendering with the default parameter values: at <.Params.SIZ>: map has no entry for key "SIZ"; did you mean "SIZE"?
}
