package versions

import (
	"encoding/json"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// refusal says why an object cannot be converted and what to change:
// msg reads after "<API> is removed in Kubernetes <version> (target
// <version>), and"; field is the field concerned, if any.
type refusal struct {
	field string
	msg   string
}

func metaAccessor(obj runtime.Object) (metav1.Object, error) { return meta.Accessor(obj) }

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// orSome joins fields, or says "some fields" when there are none.
func orSome(fields []string) string {
	if len(fields) == 0 {
		return "some fields"
	}
	return strings.Join(fields, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func isScalar(x any) bool {
	switch x.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// isEmpty reports whether x is null, {} or [].
func isEmpty(x any) bool {
	switch t := x.(type) {
	case nil:
		return true
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

func asList(x any) []any {
	l, _ := x.([]any)
	return l
}

// show writes a plain value as JSON.
func show(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return "?"
	}
	return string(b)
}

func deepCopy(x any) any {
	switch t := x.(type) {
	case map[string]any:
		return deepCopyMap(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	}
	return x
}

func deepCopyMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = deepCopy(v)
	}
	return out
}

// isZero reports whether x is a zero scalar (null, 0, "", false) or an
// empty map or list.
func isZero(x any) bool {
	switch t := x.(type) {
	case nil:
		return true
	case bool:
		return !t
	case string:
		return t == ""
	case int64:
		return t == 0
	case float64:
		return t == 0
	}
	return isEmpty(x)
}

// zeroTree reports whether x holds nothing but zero values.
func zeroTree(x any) bool {
	switch t := x.(type) {
	case map[string]any:
		for _, v := range t {
			if !zeroTree(v) {
				return false
			}
		}
		return true
	case []any:
		for _, v := range t {
			if !zeroTree(v) {
				return false
			}
		}
		return true
	}
	return isZero(x)
}
