package plan_test

import (
	"fmt"
	"testing/fstest"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/plan"
)

func ExampleSchedule() {
	b, err := bundle.Load(fstest.MapFS{
		"operator.yaml": {Data: []byte(`apiVersion: kudo.dev/v1beta1
name: zk
operatorVersion: 0.1.0
tasks:
  - {name: a, kind: Apply, spec: {resources: [a.yaml]}}
  - {name: b, kind: Apply, spec: {resources: [b.yaml]}}
  - {name: check, kind: Apply, spec: {resources: [job.yaml]}}
  - {name: cleanup, kind: Delete, spec: {resources: [job.yaml]}}
plans:
  deploy:
    strategy: serial
    phases:
      - {name: nodes, strategy: parallel, steps: [{name: a, tasks: [a]}, {name: b, tasks: [b]}]}
      - {name: validate, strategy: serial, steps: [{name: check, tasks: [check]}, {name: cleanup, tasks: [cleanup]}]}
`)},
		"params.yaml":        {Data: []byte("apiVersion: kudo.dev/v1beta1\nparameters: []\n")},
		"templates/a.yaml":   {Data: []byte("{}")},
		"templates/b.yaml":   {Data: []byte("{}")},
		"templates/job.yaml": {Data: []byte("{}")},
	}, "zk")
	if err != nil {
		fmt.Println(err)
		return
	}
	invs, err := plan.Schedule(b, []string{"deploy"}, params.Values{}, plan.Options{Instance: "zk"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, inv := range invs {
		fmt.Printf("wave %d %s %s\n", inv.Wave, inv.Action, inv.Where())
	}
	// Output:
	// wave 0 apply deploy.nodes.a.a
	// wave 0 apply deploy.nodes.b.b
	// wave 1 apply deploy.validate.check.check
	// wave 2 delete deploy.validate.cleanup.cleanup
}
