package differential

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// Schemas are the OpenAPI v3 schemas the API server publishes, by group
// version: where the mutations find a field's type, its enum values and
// the fields an object may have.
type Schemas struct {
	byGV map[schema.GroupVersion]map[string]any // components.schemas
}

// LoadSchemas reads the OpenAPI v3 documents of the server's group
// versions.
func LoadSchemas(ctx context.Context, cfg *rest.Config) (*Schemas, error) {
	c, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, err
	}
	var index struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if err := getJSON(ctx, c, cfg.Host+"/openapi/v3", &index); err != nil {
		return nil, err
	}
	s := &Schemas{byGV: map[schema.GroupVersion]map[string]any{}}
	for p, ref := range index.Paths {
		gv, ok := pathGroupVersion(p)
		if !ok {
			continue
		}
		var doc struct {
			Components struct {
				Schemas map[string]any `json:"schemas"`
			} `json:"components"`
		}
		if err := getJSON(ctx, c, cfg.Host+ref.URL, &doc); err != nil {
			return nil, err
		}
		s.byGV[gv] = doc.Components.Schemas
	}
	return s, nil
}

// pathGroupVersion reads "api/v1" and "apis/apps/v1".
func pathGroupVersion(p string) (schema.GroupVersion, bool) {
	parts := strings.Split(p, "/")
	switch {
	case len(parts) == 2 && parts[0] == "api":
		return schema.GroupVersion{Version: parts[1]}, true
	case len(parts) == 3 && parts[0] == "apis":
		return schema.GroupVersion{Group: parts[1], Version: parts[2]}, true
	}
	return schema.GroupVersion{}, false
}

func getJSON(ctx context.Context, c *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
		return fmt.Errorf("GET %s: %s: %s", url, resp.Status, body)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// A Schema is one node of a kind's schema; nil knows nothing.
type Schema struct {
	defs map[string]any
	m    map[string]any
}

// Kind is the schema of a kind; nil when the server publishes none.
func (s *Schemas) Kind(gvk schema.GroupVersionKind) *Schema {
	defs := s.byGV[gvk.GroupVersion()]
	for _, d := range defs {
		m, _ := d.(map[string]any)
		exts, _ := m["x-kubernetes-group-version-kind"].([]any)
		for _, e := range exts {
			e, _ := e.(map[string]any)
			if e["group"] == gvk.Group && e["version"] == gvk.Version && e["kind"] == gvk.Kind {
				return &Schema{defs: defs, m: m}
			}
		}
	}
	return nil
}

// resolve follows $ref and a single allOf, as Kubernetes writes a
// reference with a description.
func (n *Schema) resolve() *Schema {
	for n != nil {
		if all, ok := n.m["allOf"].([]any); ok && len(all) == 1 {
			m, _ := all[0].(map[string]any)
			n = &Schema{defs: n.defs, m: m}
			continue
		}
		ref, _ := n.m["$ref"].(string)
		if ref == "" {
			return n
		}
		m, _ := n.defs[strings.TrimPrefix(ref, "#/components/schemas/")].(map[string]any)
		if m == nil {
			return nil
		}
		n = &Schema{defs: n.defs, m: m}
	}
	return nil
}

// Ref names the type a node refers to ("io.k8s.apimachinery.pkg.api.
// resource.Quantity"), "" when it names none.
func (n *Schema) Ref() string {
	for n != nil {
		if all, ok := n.m["allOf"].([]any); ok && len(all) == 1 {
			m, _ := all[0].(map[string]any)
			n = &Schema{defs: n.defs, m: m}
			continue
		}
		ref, _ := n.m["$ref"].(string)
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	return ""
}

// Child is the schema of a map key or list index below n.
func (n *Schema) Child(key any) *Schema {
	r := n.resolve()
	if r == nil {
		return nil
	}
	var m map[string]any
	switch k := key.(type) {
	case int:
		m, _ = r.m["items"].(map[string]any)
	case string:
		props, _ := r.m["properties"].(map[string]any)
		if m, _ = props[k].(map[string]any); m == nil {
			m, _ = r.m["additionalProperties"].(map[string]any)
		}
	}
	if m == nil {
		return nil
	}
	return &Schema{defs: n.defs, m: m}
}

// At is the schema of the node at path.
func (n *Schema) At(path []any) *Schema {
	for _, k := range path {
		if n = n.Child(k); n == nil {
			return nil
		}
	}
	return n
}

// Type is the node's OpenAPI type ("string", "object", ...).
func (n *Schema) Type() string {
	if r := n.resolve(); r != nil {
		t, _ := r.m["type"].(string)
		return t
	}
	return ""
}

// Enum is the node's enum values.
func (n *Schema) Enum() []string {
	r := n.resolve()
	if r == nil {
		return nil
	}
	var out []string
	for _, v := range anyList(r.m["enum"]) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Properties are the fields an object node may have, sorted.
func (n *Schema) Properties() []string {
	r := n.resolve()
	if r == nil {
		return nil
	}
	props, _ := r.m["properties"].(map[string]any)
	return sortedKeys(props)
}

func anyList(v any) []any { l, _ := v.([]any); return l }
