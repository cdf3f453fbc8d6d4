package argocd_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleDecorate() {
	job := object.New(map[string]any{"apiVersion": "batch/v1", "kind": "Job", "metadata": map[string]any{"name": "migrate"}})
	argocd.Decorate([]engine.Item{{Obj: job, Wave: 2, Hook: true, ServerSideApply: true}})
	data, _ := job.Marshal()
	fmt.Print(string(data))
	// Output:
	// apiVersion: batch/v1
	// kind: Job
	// metadata:
	//   annotations:
	//     argocd.argoproj.io/hook: Sync
	//     argocd.argoproj.io/hook-delete-policy: HookSucceeded
	//     argocd.argoproj.io/sync-options: ServerSideApply=true
	//     argocd.argoproj.io/sync-wave: "2"
	//   name: migrate
}

func ExampleFromEnv() {
	b := &bundle.Bundle{Params: []*bundle.Param{{Name: "NODE_COUNT"}}}
	s, err := argocd.FromEnv([]string{
		"ARGOCD_APP_NAME=zk", "ARGOCD_APP_NAMESPACE=data",
		"ARGOCD_ENV_NODE_COUNT=5", "ARGOCD_ENV_PLAN=deploy,upgrade",
	}, b)
	fmt.Println(s.Name, s.Namespace, s.Plans, s.Params, err)
	// Output: zk data [deploy upgrade] map[NODE_COUNT:5] <nil>
}
