package enhance_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleObject() {
	o := object.New(map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "zk-hs", "namespace": "elsewhere"}})
	enhance.Object(o, enhance.Meta{
		OperatorName: "zookeeper", OperatorVersion: "0.3.3", Instance: "zk", Namespace: "data",
		Plan: "deploy", Phase: "zookeeper", Step: "deploy", Source: "zookeeper@0.3.3", Template: "templates/services.yaml",
	}, enhance.ScopesOf(nil))
	data, _ := o.Marshal()
	fmt.Print(string(data))
	// Output:
	// apiVersion: v1
	// kind: Service
	// metadata:
	//   annotations:
	//     kudo.dev/phase: zookeeper
	//     kudo.dev/plan: deploy
	//     kudo.dev/step: deploy
	//     kudorender.dev/source: zookeeper@0.3.3
	//     kudorender.dev/template: templates/services.yaml
	//   labels:
	//     heritage: kudo
	//     kudo.dev/instance: zk
	//     kudo.dev/operator: zookeeper
	//   name: zk-hs
	//   namespace: data
}
