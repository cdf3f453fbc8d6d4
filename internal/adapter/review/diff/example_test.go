package diff_test

import (
	"os"

	"github.com/kudo-render/kudo-render/internal/adapter/review/diff"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func ExampleCompare() {
	secret := func(pw string) *object.Object {
		return object.New(map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "db", "namespace": "shop"}, "stringData": map[string]any{"password": pw}})
	}
	job := func(api string) *object.Object {
		return object.New(map[string]any{"apiVersion": api, "kind": "Job", "metadata": map[string]any{"name": "migrate", "namespace": "shop"}})
	}
	from := []engine.Item{{Obj: secret("old-password"), Wave: 0}, {Obj: job("batch/v1beta1"), Wave: 1}}
	to := []engine.Item{{Obj: job("batch/v1"), Wave: 0, Hook: true}, {Obj: secret("new-password"), Wave: 1}}
	r, err := diff.Compare(from, to, diff.Options{})
	if err != nil {
		panic(err)
	}
	if err := r.Text(os.Stdout, false); err != nil {
		panic(err)
	}
	// Output:
	// ~ Job.batch shop/migrate (changed, wave 0, hook: runs once)
	//     moved: wave 1 → 0 (applied earlier)
	//     moved: now a hook (runs once, then deleted)
	//   ~ apiVersion: batch/v1beta1 → batch/v1
	// ~ Secret shop/db (changed, wave 1)
	//     moved: wave 0 → 1 (applied later)
	//   ~ stringData.password: changed (secret values hidden)
	//
	// 0 to add, 2 to change, 0 to remove
}
