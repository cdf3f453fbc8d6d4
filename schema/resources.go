package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GroupSuffix ends the API group of every framework's resources.
const GroupSuffix = ".kudorender.dev"

// Annotations that KRM orchestrators (kpt, kustomize) set on input items;
// [Resources] uses them to say where a resource came from.
const (
	annotationPath         = "config.kubernetes.io/path"
	annotationInternalPath = "internal.config.kubernetes.io/path"
	annotationIndex        = "config.kubernetes.io/index"
)

// APIGroup is the API group of a framework's resources,
// "<framework>.kudorender.dev".
func APIGroup(framework string) string { return framework + GroupSuffix }

// Owns reports whether obj claims to be a resource of the framework: its
// apiVersion is in APIGroup(framework). An adapter uses it to pick the
// framework's resources among KRM input items; [Resources] then validates
// them (an unknown kind or version in that group is an error there).
func Owns(framework string, obj map[string]any) bool {
	av, _ := obj["apiVersion"].(string)
	group, _, ok := strings.Cut(av, "/")
	return ok && group == APIGroup(framework)
}

// Kubernetes object names (DNS subdomains) and namespaces (DNS labels).
var (
	dns1123Label     = regexp.MustCompile(`^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$`)
	dns1123Subdomain = regexp.MustCompile(`^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$`)
)

// topLevel are the fields a resource may have.
var topLevel = []string{"apiVersion", "kind", "metadata", "spec"}

// metadataFields are the fields of a resource's metadata.
var metadataFields = []string{"name", "namespace", "labels", "annotations"}

// Resources validates resources of the framework's definitions and groups
// them for templates.
//
// Every resource must have
//
//   - apiVersion "<framework>.kudorender.dev/<version>" and a kind, which
//     together name one of defs (an apiVersion outside that group, an
//     unknown version or kind is an error);
//   - only the fields apiVersion, kind, metadata and spec;
//   - metadata.name, a DNS subdomain name (lowercase letters, digits, '-'
//     and '.'), unique among the resources of one slugPlural (per
//     namespace); metadata.namespace (a DNS label) only for namespaced
//     definitions; metadata.labels and annotations maps of strings; no
//     other metadata;
//   - a spec, a mapping that the definition's schema accepts. The schema
//     describes the spec, as a CustomResourceDefinition's does, not the
//     whole object: the envelope is checked above. A missing spec is
//     validated as {}.
//
// The top-level `unique: [field, ...]` keyword of a definition's schema
// names dot paths into the spec: two resources of that definition (one
// version) with equal values (JSON equality: 1 and 1.0 are equal) at one
// of those paths are an error; resources without the field are not
// compared.
//
// It returns, for every definition's slugPlural (also those without
// resources: an empty list, so that templates can range over it), the
// list of its resources (as given, each a map[string]any) sorted by
// metadata.name, then namespace, then apiVersion; templates see it as
// .Resources.<slugPlural>. On failure it returns nil and a
// [*ValidationError] listing every violation with its resource, the
// resource's source when the orchestrator recorded it, and the JSON
// pointer inside the resource ("/spec/partitions"). A definition whose
// schema cannot be used is a [*SchemaError].
func Resources(framework string, defs []*Definition, resources []map[string]any) (map[string][]any, error) {
	type defKey struct{ version, kind string }
	byKey := map[defKey]*Definition{}
	kinds := map[string][]string{} // version -> kinds
	schemas := map[*Definition]*compiled{}
	out := map[string][]any{}
	for _, d := range defs {
		if d == nil {
			continue
		}
		byKey[defKey{d.Version, d.Name}] = d
		kinds[d.Version] = append(kinds[d.Version], d.Name)
		out[d.SlugPlural] = []any{}
		doc, err := decodeJSON(d.Schema, MaxDepth)
		if err != nil {
			return nil, &SchemaError{Schema: d.File, Problems: []*Problem{{File: d.File, Line: d.Line, Field: "schema", Msg: err.Error()}}}
		}
		c, probs := compileSchema(d.File, doc, true)
		if len(probs) > 0 {
			e := schemaError(d.File, probs, nil)
			for _, p := range e.Problems {
				p.Line, p.Field = d.Line, "schema"+p.Field
			}
			return nil, e
		}
		schemas[d] = c
	}

	group := APIGroup(framework)
	var viols []Violation
	type entry struct {
		def              *Definition
		name, namespace  string
		obj              map[string]any
		spec             any
		resource, source string
	}
	var entries []entry
	for i, obj := range resources {
		id := fmt.Sprintf("resources[%d]", i)
		source := sourceOf(obj)
		bad := func(ptr, format string, args ...any) {
			viols = append(viols, Violation{Pointer: ptr, Message: fmt.Sprintf(format, args...), Resource: id, Source: source})
		}
		if obj == nil {
			bad("", "is empty")
			continue
		}

		kind, _ := obj["kind"].(string)
		meta, _ := obj["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		if kind != "" && name != "" {
			id = kind + "/" + name
		}

		av, ok := obj["apiVersion"].(string)
		g, version, _ := strings.Cut(av, "/")
		var def *Definition
		switch {
		case !ok || av == "":
			bad("/apiVersion", "is required (%s/<version>)", group)
		case g != group:
			bad("/apiVersion", "%q is not in the group of framework %s: want %s/<version>", av, framework, group)
		case kind == "":
			bad("/kind", "is required")
		default:
			def = byKey[defKey{version, kind}]
			if def == nil {
				if known := kinds[version]; len(known) > 0 {
					slices.Sort(known)
					bad("/kind", "%q is not a kind of %s (kinds: %s)", kind, av, strings.Join(known, ", "))
				} else {
					bad("/apiVersion", "%q: framework %s defines no resources of version %q%s", av, framework, version, otherVersions(defs, kind))
				}
			}
		}

		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if !slices.Contains(topLevel, k) {
				bad("/"+escapePtr(k), "unknown field: a resource has apiVersion, kind, metadata and spec (its data goes below spec)")
			}
		}

		// metadata
		switch {
		case obj["metadata"] == nil:
			bad("/metadata", "is required (with a name)")
		case meta == nil:
			bad("/metadata", "must be a mapping")
		default:
			for _, k := range slices.Sorted(maps.Keys(meta)) {
				if !slices.Contains(metadataFields, k) {
					bad("/metadata/"+escapePtr(k), "unknown field: metadata has name, namespace, labels and annotations")
				}
			}
			switch n := meta["name"].(type) {
			case nil:
				bad("/metadata/name", "is required")
			case string:
				if !dns1123Subdomain.MatchString(n) || len(n) > 253 {
					bad("/metadata/name", "%q is not a valid name: want at most 253 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit", n)
				}
			default:
				bad("/metadata/name", "must be a string")
			}
			if ns, has := meta["namespace"]; has {
				s, isString := ns.(string)
				switch {
				case def != nil && def.Scope == ScopeCluster:
					bad("/metadata/namespace", "is not allowed: %s is cluster-scoped", def.Name)
				case !isString:
					bad("/metadata/namespace", "must be a string")
				default:
					if !dns1123Label.MatchString(s) || len(s) > 63 {
						bad("/metadata/namespace", "%q is not a valid namespace: want at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit", s)
					}
				}
			}
			for _, f := range []string{"labels", "annotations"} {
				v, has := meta[f]
				if !has {
					continue
				}
				m, isMap := v.(map[string]any)
				if !isMap {
					bad("/metadata/"+f, "must be a mapping of strings")
					continue
				}
				for _, k := range slices.Sorted(maps.Keys(m)) {
					if _, isString := m[k].(string); !isString {
						bad("/metadata/"+f+"/"+escapePtr(k), "must be a string")
					}
				}
			}
		}

		if def == nil {
			continue
		}

		// spec
		spec, has := obj["spec"]
		if !has || spec == nil {
			spec = map[string]any{}
		}
		switch spec.(type) {
		case map[string]any, map[any]any:
		default:
			bad("/spec", "must be a mapping (the resource's data, which the definition's schema describes)")
			continue
		}
		// The spec sits one level down, in the resource.
		w := &walker{maxDepth: MaxDepth}
		jspec, err := w.toJSON(spec, "/spec", 1)
		if err != nil {
			msg := err.Error()
			ptr := "/spec"
			if pe, ok := err.(*pathError); ok {
				ptr, msg = pe.ptr, pe.err.Error()
			}
			bad(ptr, "%s", msg)
			continue
		}
		found, err := schemas[def].validate(jspec, w.nodes)
		if err != nil {
			bad("/spec", "%v", err)
			continue
		}
		for _, v := range found {
			bad("/spec"+v.Pointer, "%s", v.Message)
		}
		ns, _ := meta["namespace"].(string)
		entries = append(entries, entry{def: def, name: name, namespace: ns, obj: obj, spec: jspec, resource: id, source: source})
	}

	// Names are unique per slugPlural and namespace.
	type nameKey struct{ slug, namespace, name string }
	seenName := map[nameKey]entry{}
	for _, e := range entries {
		if e.name == "" {
			continue
		}
		k := nameKey{e.def.SlugPlural, e.namespace, e.name}
		if prev, dup := seenName[k]; dup {
			viols = append(viols, Violation{Pointer: "/metadata/name", Resource: e.resource, Source: e.source,
				Message: fmt.Sprintf("%s %q is declared twice (also %s%s)", e.def.SlugSingular, e.name, prev.obj["apiVersion"], sourceSuffix(prev.source))})
			continue
		}
		seenName[k] = e
	}

	// unique
	for _, d := range defs {
		if d == nil {
			continue
		}
		for _, field := range d.Unique {
			seen := map[string]entry{}
			for _, e := range entries {
				if e.def != d {
					continue
				}
				v, ok := lookupDotted(e.spec, field)
				if !ok || v == nil {
					continue
				}
				key, err := equalityKey(v)
				if err != nil {
					continue
				}
				if prev, dup := seen[key]; dup {
					viols = append(viols, Violation{Pointer: "/spec/" + strings.ReplaceAll(escapePtr(field), ".", "/"), Resource: e.resource, Source: e.source,
						Message: fmt.Sprintf("%s must be unique among %s: %s has the same value%s", showValue(v), d.SlugPlural, prev.resource, sourceSuffix(prev.source))})
					continue
				}
				seen[key] = e
			}
		}
	}

	if len(viols) > 0 {
		sortViolations(viols)
		return nil, &ValidationError{What: "resource", Violations: viols}
	}

	for _, e := range entries {
		out[e.def.SlugPlural] = append(out[e.def.SlugPlural], e.obj)
	}
	for slug, list := range out {
		slices.SortStableFunc(list, func(a, b any) int {
			am, bm := a.(map[string]any), b.(map[string]any)
			for _, f := range []func(map[string]any) string{metaName, metaNamespace, apiVersion} {
				if c := strings.Compare(f(am), f(bm)); c != 0 {
					return c
				}
			}
			return 0
		})
		out[slug] = list
	}
	return out, nil
}

func metaName(o map[string]any) string {
	m, _ := o["metadata"].(map[string]any)
	s, _ := m["name"].(string)
	return s
}

func metaNamespace(o map[string]any) string {
	m, _ := o["metadata"].(map[string]any)
	s, _ := m["namespace"].(string)
	return s
}

func apiVersion(o map[string]any) string {
	s, _ := o["apiVersion"].(string)
	return s
}

// otherVersions mentions the versions that define kind, if any.
func otherVersions(defs []*Definition, kind string) string {
	var vs []string
	for _, d := range defs {
		if d != nil && d.Name == kind {
			vs = append(vs, d.Version)
		}
	}
	if len(vs) == 0 {
		return ""
	}
	slices.Sort(vs)
	return fmt.Sprintf(" (%s is defined in %s)", kind, strings.Join(vs, ", "))
}

// sourceOf reads where an orchestrator says obj came from.
func sourceOf(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	p, _ := ann[annotationPath].(string)
	if p == "" {
		p, _ = ann[annotationInternalPath].(string)
	}
	if p == "" {
		return ""
	}
	if idx, _ := ann[annotationIndex].(string); idx != "" && idx != "0" {
		return p + " #" + idx
	}
	return p
}

func sourceSuffix(source string) string {
	if source == "" {
		return ""
	}
	return " in " + source
}

// lookupDotted follows a dot path through objects.
func lookupDotted(v any, dotted string) (any, bool) {
	for _, seg := range strings.Split(dotted, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		v, ok = m[seg]
		if !ok {
			return nil, false
		}
	}
	return v, true
}

// equalityKey is a string that is equal for values that JSON Schema calls
// equal: canonical JSON with every number as a fraction in lowest terms.
func equalityKey(v any) (string, error) {
	var norm func(v any) any
	norm = func(v any) any {
		switch t := v.(type) {
		case json.Number:
			r, ok := new(big.Rat).SetString(string(t))
			if !ok {
				return t
			}
			return "\x00number:" + r.RatString() // numbers never equal strings

		case []any:
			out := make([]any, len(t))
			for i, e := range t {
				out[i] = norm(e)
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(t))
			for k, e := range t {
				out[k] = norm(e)
			}
			return out
		}
		return v
	}
	c, err := Canonical(norm(v))
	return string(c), err
}

// showValue shows a value in a message.
func showValue(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	c, err := Canonical(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(c) > 60 {
		return string(c[:57]) + "..."
	}
	return string(c)
}
