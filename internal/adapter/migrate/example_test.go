package migrate_test

import (
	"fmt"
	"maps"
	"slices"

	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
)

// An Instance and the OperatorVersion holding its package, as `kubectl get
// -o yaml` prints them: Import rebuilds the package and writes a
// FrameworkRender with the parameters that differ from the defaults.
func Example() {
	export := `apiVersion: v1
kind: List
items:
- apiVersion: kudo.dev/v1beta1
  kind: OperatorVersion
  metadata: {name: hello-1.0.0, namespace: demo}
  spec:
    operator: {name: hello, kind: Operator}
    version: 1.0.0
    templates:
      cm.yaml: |
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: "{{ .Name }}"}
        data: {greeting: "{{ .Params.GREETING }}", replicas: "{{ .Params.REPLICAS }}"}
    tasks: [{name: app, kind: Apply, spec: {resources: [cm.yaml]}}]
    plans: {deploy: {strategy: serial, phases: [{name: main, strategy: serial, steps: [{name: app, tasks: [app]}]}]}}
    parameters:
    - {name: GREETING, default: hello}
    - {name: REPLICAS, default: "1", value-type: integer}
- apiVersion: kudo.dev/v1beta1
  kind: Instance
  metadata: {name: hi, namespace: demo, labels: {kudo.dev/operator: hello}}
  spec:
    operatorVersion: {name: hello-1.0.0}
    parameters: {GREETING: hello, REPLICAS: "3"}
`
	var exp migrate.Export
	if err := migrate.Parse("export.yaml", []byte(export), &exp); err != nil {
		fmt.Println(err)
		return
	}
	res, err := migrate.Import(&exp, migrate.Options{OutDir: "/gitops", RepoURL: "https://git.example.com/gitops.git", Revision: "main"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range slices.Sorted(maps.Keys(res.Files)) {
		fmt.Println(p)
	}
	fmt.Print(string(res.Files["demo/hi/kudo-render.yaml"]))
	// Output:
	// demo/hi/application.yaml
	// demo/hi/kudo-render.yaml
	// operators/hello/1.0.0/operator.yaml
	// operators/hello/1.0.0/params.yaml
	// operators/hello/1.0.0/templates/cm.yaml
	// # Imported from the KUDO Instance demo/hi (OperatorVersion hello-1.0.0) by kudo-render import.
	// apiVersion: kudorender.dev/v1alpha1
	// kind: FrameworkRender
	// metadata:
	//   name: hi
	//   namespace: demo
	// spec:
	//   framework:
	//     path: ../../operators/hello/1.0.0
	//   params:
	//     REPLICAS: 3
	//   serverSideApply: true
}
