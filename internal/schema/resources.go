package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/limits"
)

// GroupSuffix ends the API group of every framework's resources.
const GroupSuffix = ".kudorender.dev"

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
	dns1123Label     = lazy.Regexp(`^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$`)
	dns1123Subdomain = lazy.Regexp(`^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9](?:[-a-z0-9]*[a-z0-9])?)*$`)
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
// source, when not nil, says where a resource came from (a file, an input
// item); messages name it. Only the caller knows where its resources were
// recorded.
//
// It returns, for every definition's slugPlural (also those without
// resources: an empty list, so that templates can range over it), the
// list of its resources (as given, each a map[string]any) sorted by
// metadata.name, then namespace, then apiVersion; templates see it as
// .Resources.<slugPlural>. On failure it returns nil and a
// [*ValidationError] listing every violation with its resource, its
// source when known, and the JSON pointer inside the resource
// ("/spec/partitions"). A definition whose schema cannot be used is a
// [*SchemaError].
func Resources(framework string, defs []*Definition, resources []map[string]any, source func(obj map[string]any) string) (map[string][]any, error) {
	return ResourcesWithin(framework, defs, resources, source, nil)
}

// ResourcesWithin is Resources within the budget of a render: the steps
// of validating the resources are charged to budget (its schema-steps),
// and validation stops with its error when it is spent. A nil budget
// bounds each validation alone.
func ResourcesWithin(framework string, defs []*Definition, resources []map[string]any, source func(obj map[string]any) string, budget *limits.Budget) (map[string][]any, error) {
	idx, out, err := indexDefinitions(defs, budget)
	if err != nil {
		return nil, err
	}
	for _, s := range idx.schemas {
		s.within(budget)
	}
	defer activity.Doing("validating the resources of " + framework + " against their definitions")()
	c := &resourceChecker{framework: framework, group: APIGroup(framework), defs: defs, idx: idx, source: source}
	for i, obj := range resources {
		c.checkResource(i, obj)
		if c.stop != nil {
			return nil, c.stop
		}
	}
	c.checkNames()
	c.checkUnique()
	if len(c.viols) > 0 {
		sortViolations(c.viols)
		return nil, &ValidationError{What: "resource", Violations: c.viols}
	}
	for _, e := range c.entries {
		out[e.def.SlugPlural] = append(out[e.def.SlugPlural], e.obj)
	}
	for slug, list := range out {
		slices.SortStableFunc(list, compareResources)
		out[slug] = list
	}
	return out, nil
}

// defKey names a definition by its version and kind.
type defKey struct{ version, kind string }

// definitionIndex finds the definitions of a framework and their compiled
// schemas.
type definitionIndex struct {
	byKey   map[defKey]*Definition
	kinds   map[string][]string // version -> kinds
	schemas map[*Definition]*compiled
}

// indexDefinitions compiles the schemas of defs (the work charged to
// budget) and indexes them; it also returns the empty groups of
// resources, one per slugPlural.
func indexDefinitions(defs []*Definition, budget *limits.Budget) (*definitionIndex, map[string][]any, error) {
	idx := &definitionIndex{byKey: map[defKey]*Definition{}, kinds: map[string][]string{}, schemas: map[*Definition]*compiled{}}
	out := map[string][]any{}
	for _, d := range defs {
		if d == nil {
			continue
		}
		idx.byKey[defKey{d.Version, d.Name}] = d
		idx.kinds[d.Version] = append(idx.kinds[d.Version], d.Name)
		out[d.SlugPlural] = []any{}
		c, err := compileDefinition(d, budget)
		if err != nil {
			return nil, nil, err
		}
		idx.schemas[d] = c
	}
	return idx, out, nil
}

// compileDefinition compiles the schema of one definition, the work
// charged to budget; its problems point at the definition's schema field.
func compileDefinition(d *Definition, budget *limits.Budget) (*compiled, error) {
	doc, err := decodeJSON(d.Schema, MaxDepth)
	if err != nil {
		return nil, &SchemaError{Schema: d.File, Problems: []*Problem{{File: d.File, Line: d.Line, Field: "schema", Msg: err.Error()}}}
	}
	if err := chargeCompile(budget, d.File, doc); err != nil {
		return nil, err
	}
	c, probs := compileSchema(d.File, doc, true)
	if len(probs) > 0 {
		e := schemaError(d.File, probs, nil)
		for _, p := range e.Problems {
			p.Line, p.Field = d.Line, "schema"+p.Field
		}
		return nil, e
	}
	return c, nil
}

// resourceEntry is a resource whose envelope and spec are valid.
type resourceEntry struct {
	def              *Definition
	name, namespace  string
	obj              map[string]any
	spec             any
	resource, source string
	ref              *diag.Resource
}

// resourceChecker collects the violations and the valid entries of the
// resources given to [Resources].
type resourceChecker struct {
	framework, group string
	defs             []*Definition
	idx              *definitionIndex
	source           func(obj map[string]any) string
	viols            []Violation
	entries          []resourceEntry
	// stop is the error that ends validation (the render's budget).
	stop error
}

// reportFunc reports a violation at a JSON pointer of one resource.
type reportFunc func(ptr, format string, args ...any)

// reporter reports the violations of the resource id (ref) from source.
func (c *resourceChecker) reporter(id, source string, ref *diag.Resource) reportFunc {
	return func(ptr, format string, args ...any) {
		c.viols = append(c.viols, Violation{Pointer: ptr, Message: fmt.Sprintf(format, args...), Resource: id, Source: source, Ref: ref})
	}
}

// sourceOf says where obj came from, when the caller knows.
func (c *resourceChecker) sourceOf(obj map[string]any) string {
	if c.source == nil || obj == nil {
		return ""
	}
	return c.source(obj)
}

// checkResource validates the i-th resource: its definition, envelope,
// metadata and spec, in that order; a valid one becomes an entry.
func (c *resourceChecker) checkResource(i int, obj map[string]any) {
	id := fmt.Sprintf("resources[%d]", i)
	source := c.sourceOf(obj)
	if obj == nil {
		c.reporter(id, source, nil)("", "is empty")
		return
	}
	kind, _ := obj["kind"].(string)
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	var ref *diag.Resource
	if kind != "" && name != "" {
		id = kind + "/" + name
		av, _ := obj["apiVersion"].(string)
		ref = &diag.Resource{APIVersion: av, Kind: kind, Namespace: ns, Name: name}
	}
	bad := c.reporter(id, source, ref)
	def := c.definitionOf(obj, kind, bad)
	checkTopLevel(obj, bad)
	checkMetadata(obj["metadata"], meta, def, bad)
	if def == nil {
		return
	}
	jspec, ok := c.checkSpec(obj, def, bad)
	if !ok {
		return
	}
	c.entries = append(c.entries, resourceEntry{def: def, name: name, namespace: ns, obj: obj, spec: jspec, resource: id, source: source, ref: ref})
}

// definitionOf finds the definition that obj's apiVersion and kind name,
// reporting why there is none.
func (c *resourceChecker) definitionOf(obj map[string]any, kind string, bad reportFunc) *Definition {
	av, ok := obj["apiVersion"].(string)
	g, version, _ := strings.Cut(av, "/")
	switch {
	case !ok || av == "":
		bad("/apiVersion", "is required (%s/<version>)", c.group)
	case g != c.group:
		bad("/apiVersion", "%q is not in the group of framework %s: want %s/<version>", av, c.framework, c.group)
	case kind == "":
		bad("/kind", "is required")
	default:
		def := c.idx.byKey[defKey{version, kind}]
		if def != nil {
			return def
		}
		if known := c.idx.kinds[version]; len(known) > 0 {
			slices.Sort(known)
			bad("/kind", "%q is not a kind of %s (kinds: %s)", kind, av, strings.Join(known, ", "))
		} else {
			bad("/apiVersion", "%q: framework %s defines no resources of version %q%s", av, c.framework, version, otherVersions(c.defs, kind))
		}
	}
	return nil
}

// checkTopLevel reports the fields of a resource other than apiVersion,
// kind, metadata and spec.
func checkTopLevel(obj map[string]any, bad reportFunc) {
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if !slices.Contains(topLevel, k) {
			bad("/"+escapePtr(k), "unknown field: a resource has apiVersion, kind, metadata and spec (its data goes below spec)")
		}
	}
}

// checkMetadata validates a resource's metadata (raw, and meta when it is
// a mapping) against its definition def (nil when unknown).
func checkMetadata(raw any, meta map[string]any, def *Definition, bad reportFunc) {
	switch {
	case raw == nil:
		bad("/metadata", "is required (with a name)")
		return
	case meta == nil:
		bad("/metadata", "must be a mapping")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		if !slices.Contains(metadataFields, k) {
			bad("/metadata/"+escapePtr(k), "unknown field: metadata has name, namespace, labels and annotations")
		}
	}
	checkName(meta["name"], bad)
	if ns, has := meta["namespace"]; has {
		checkNamespace(ns, def, bad)
	}
	for _, f := range []string{"labels", "annotations"} {
		if v, has := meta[f]; has {
			checkStringMap(f, v, bad)
		}
	}
}

// checkName validates metadata.name: a DNS subdomain name.
func checkName(name any, bad reportFunc) {
	switch n := name.(type) {
	case nil:
		bad("/metadata/name", "is required")
	case string:
		if !dns1123Subdomain().MatchString(n) || len(n) > 253 {
			bad("/metadata/name", "%q is not a valid name: want at most 253 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit", n)
		}
	default:
		bad("/metadata/name", "must be a string")
	}
}

// checkNamespace validates metadata.namespace: a DNS label, and only for
// namespaced definitions.
func checkNamespace(ns any, def *Definition, bad reportFunc) {
	s, isString := ns.(string)
	switch {
	case def != nil && def.Scope == ScopeCluster:
		bad("/metadata/namespace", "is not allowed: %s is cluster-scoped", def.Name)
	case !isString:
		bad("/metadata/namespace", "must be a string")
	default:
		if !dns1123Label().MatchString(s) || len(s) > 63 {
			bad("/metadata/namespace", "%q is not a valid namespace: want at most 63 lowercase letters, digits and '-', starting and ending with a letter or digit", s)
		}
	}
}

// checkStringMap validates metadata.<field> (labels, annotations): a
// mapping of strings.
func checkStringMap(field string, v any, bad reportFunc) {
	m, isMap := v.(map[string]any)
	if !isMap {
		bad("/metadata/"+field, "must be a mapping of strings")
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if _, isString := m[k].(string); !isString {
			bad("/metadata/"+field+"/"+escapePtr(k), "must be a string")
		}
	}
}

// checkSpec validates a resource's spec (a missing one is {}) against the
// schema of def; it returns the spec as JSON values and whether it could
// be validated.
func (c *resourceChecker) checkSpec(obj map[string]any, def *Definition, bad reportFunc) (any, bool) {
	spec, has := obj["spec"]
	if !has || spec == nil {
		spec = map[string]any{}
	}
	switch spec.(type) {
	case map[string]any, map[any]any:
	default:
		bad("/spec", "must be a mapping (the resource's data, which the definition's schema describes)")
		return nil, false
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
		return nil, false
	}
	found, err := c.idx.schemas[def].validate(jspec, w.nodes)
	var le *diag.LimitError
	if errors.As(err, &le) {
		c.stop = err // the render's budget: no violation of this resource
		return nil, false
	}
	if err != nil {
		bad("/spec", "%v", err)
		return nil, false
	}
	for _, v := range found {
		bad("/spec"+v.Pointer, "%s", v.Message)
	}
	return jspec, true
}

// checkNames reports names declared twice in one slugPlural and
// namespace.
func (c *resourceChecker) checkNames() {
	type nameKey struct{ slug, namespace, name string }
	seenName := map[nameKey]resourceEntry{}
	for _, e := range c.entries {
		if e.name == "" {
			continue
		}
		k := nameKey{e.def.SlugPlural, e.namespace, e.name}
		if prev, dup := seenName[k]; dup {
			c.viols = append(c.viols, Violation{Pointer: "/metadata/name", Resource: e.resource, Source: e.source, Ref: e.ref,
				Message: fmt.Sprintf("%s %q is declared twice (also %s%s)", e.def.SlugSingular, e.name, prev.obj["apiVersion"], sourceSuffix(prev.source))})
			continue
		}
		seenName[k] = e
	}
}

// checkUnique reports equal values at the unique fields of every
// definition.
func (c *resourceChecker) checkUnique() {
	for _, d := range c.defs {
		if d == nil {
			continue
		}
		for _, field := range d.Unique {
			c.checkUniqueField(d, field)
		}
	}
}

// checkUniqueField reports the resources of d with the same value at the
// dot path field as an earlier one.
func (c *resourceChecker) checkUniqueField(d *Definition, field string) {
	seen := map[string]resourceEntry{}
	for _, e := range c.entries {
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
			c.viols = append(c.viols, Violation{Pointer: "/spec/" + strings.ReplaceAll(escapePtr(field), ".", "/"), Resource: e.resource, Source: e.source, Ref: e.ref,
				Message: fmt.Sprintf("%s must be unique among %s: %s has the same value%s", showValue(v), d.SlugPlural, prev.resource, sourceSuffix(prev.source))})
			continue
		}
		seen[key] = e
	}
}

// compareResources orders resources by metadata.name, then namespace,
// then apiVersion.
func compareResources(a, b any) int {
	am, bm := a.(map[string]any), b.(map[string]any)
	for _, f := range []func(map[string]any) string{metaName, metaNamespace, apiVersion} {
		if c := strings.Compare(f(am), f(bm)); c != 0 {
			return c
		}
	}
	return 0
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
