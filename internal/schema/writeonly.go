package schema

import (
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
)

// WriteOnlyParams lists, sorted, the parameters that the bundle's
// params.schema.json (or a base's: an upper layer's property replaces a
// lower's) marks `"writeOnly": true`, directly or through a local $ref:
// JSON Schema's annotation for a value that is sent but never read back,
// such as a password. kudo-render hides their values in its messages. A
// layer that cannot be read marks nothing (the render reports it).
func WriteOnlyParams(b *bundle.Bundle) []string {
	marked := map[string]bool{}
	for _, raw := range append(slices.Clip(b.BaseParamsSchemas), b.ParamsSchema) {
		if len(raw) == 0 || len(raw) > MaxSchemaBytes {
			continue
		}
		v, err := decodeJSON(raw, MaxDepth)
		if err != nil {
			continue
		}
		doc, _ := v.(map[string]any)
		for name, prop := range mapOf(doc["properties"]) {
			marked[name] = writeOnly(doc, prop)
		}
	}
	var out []string
	for name, w := range marked {
		if w {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// writeOnly reports whether the schema s, or one it refers to locally,
// says writeOnly: true.
func writeOnly(doc map[string]any, s any) bool {
	for hops := 0; hops < 16; hops++ {
		m, ok := s.(map[string]any)
		if !ok {
			return false
		}
		if w, ok := m["writeOnly"].(bool); ok && w {
			return true
		}
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			return false
		}
		s = resolvePointer(doc, ref[1:])
	}
	return false
}
