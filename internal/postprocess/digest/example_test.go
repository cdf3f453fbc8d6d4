package digest_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/postprocess/digest"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleCheck() {
	cm := func(replicas string) *object.Object {
		return object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "web", "namespace": "prod"}, "data": map[string]any{"replicas": replicas}})
	}
	render := func(replicas string) []*object.Object {
		objs := []*object.Object{cm(replicas)}
		digest.Annotate(objs, "web@1.0/sha256:…") // the resource version of each object
		return objs
	}
	pinned := digest.Versions(render("3")) // what `kudo-render lock --pin-output` writes
	fmt.Println(len(pinned), digest.Key(cm("3")))
	fmt.Println(digest.Check(render("3"), pinned))
	fmt.Println(digest.Check(render("4"), pinned) != nil)
	// Output:
	// 1 ConfigMap/prod/web
	// <nil>
	// true
}
