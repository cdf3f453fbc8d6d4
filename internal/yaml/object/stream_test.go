package object_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestStreamIsMarshalJoined: the stream is every object as Marshal writes
// it, joined by "---" lines, for small and chunked streams alike.
func TestStreamIsMarshalJoined(t *testing.T) {
	for _, n := range []int{0, 1, 2, 255, 256, 257, 1000} {
		var objs []*object.Object
		var want []string
		for i := range n {
			o := object.New(map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": fmt.Sprint("cm-", i)},
				"data": map[string]any{"text": "a\nb\n", "n": i, "f": 1.5, "yes": "yes", "empty": map[string]any{}, "list": []any{nil, true}}})
			objs = append(objs, o)
			data, err := o.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, string(data))
		}
		got, err := object.Stream(objs)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != strings.Join(want, "---\n") {
			t.Errorf("%d objects: the stream differs from Marshal joined", n)
		}
	}
}
