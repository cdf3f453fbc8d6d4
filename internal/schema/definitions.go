package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// DefinitionsDir is the folder of a bundle that holds extension resource
// definitions.
const DefinitionsDir = "definitions"

// Scopes of a definition.
const (
	ScopeNamespaced = "namespaced"
	ScopeCluster    = "cluster"
)

var (
	// slugRE is Governor's slug: lowercase words joined by single hyphens.
	slugRE = lazy.Regexp(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	// kindRE is a Kubernetes kind: an upper camel case identifier.
	kindRE = lazy.Regexp(`^[A-Z][A-Za-z0-9]*$`)
	// versionRE is a Kubernetes API version: v1, v2beta1, v1alpha3.
	versionRE = lazy.Regexp(`^v[1-9][0-9]*(?:(?:alpha|beta)[1-9][0-9]*)?$`)
)

// maxNameLength bounds kinds and slugs (a DNS label).
const maxNameLength = 63

// Definition is an extension resource definition (after Governor's
// ERDs): a kind of resource that users of a framework declare, with a
// versioned, immutable JSON Schema for its spec.
type Definition struct {
	// Name is the kind of its resources ("Topic").
	Name string
	// SlugSingular and SlugPlural name it in lower case ("topic",
	// "topics"); templates see its resources as .Resources.<SlugPlural>.
	SlugSingular, SlugPlural string
	// Version is the API version of its resources ("v1", "v1alpha1").
	Version string
	// Scope is ScopeNamespaced or ScopeCluster.
	Scope string
	// Schema is the JSON Schema of the resources' spec, canonical JSON
	// (see [Canonical]; [Digest] of it is what the lock records). It keeps
	// the `unique` keyword.
	Schema json.RawMessage
	// Unique lists the fields of the schema's top-level `unique: [field,
	// ...]`: dot paths into the spec ("topicName", "target.port"). No two
	// resources of the definition may have the same value at one of them.
	Unique []string
	// File is the file it comes from, "definitions/<file>", and Line the
	// line where its document starts.
	File string
	Line int
}

// ID is "<slugPlural>/<version>", as the lock and messages name a
// definition.
func (d *Definition) ID() string { return d.SlugPlural + "/" + d.Version }

// rawDefinition is the YAML of one definition.
type rawDefinition struct {
	Name         string    `yaml:"name"`
	SlugSingular string    `yaml:"slugSingular"`
	SlugPlural   string    `yaml:"slugPlural"`
	Version      string    `yaml:"version"`
	Scope        string    `yaml:"scope"`
	Schema       yaml.Node `yaml:"schema"`
}

// LoadDefinitions parses the extension resource definitions of a bundle:
// every file below definitions/ (Bundle.Definitions) whose name ends in
// .yaml, .yml or .json, each holding one or more YAML documents of
//
//	name: Topic              # the kind of the resources (UpperCamelCase)
//	slugSingular: topic      # ^[a-z0-9]+(?:-[a-z0-9]+)*$, at most 63 characters
//	slugPlural: topics       # same; .Resources.topics in templates
//	version: v1              # v1, v2beta1, v1alpha1
//	scope: namespaced        # namespaced | cluster
//	schema:                  # JSON Schema (2020-12 by default) of the resources' spec
//	  type: object
//	  unique: [topicName]    # optional, top level only: fields no two resources share
//	  ...
//
// Decoding is strict: an unknown field, a missing field, a file of another
// type or that is larger than [MaxSchemaBytes] are errors. A definition's
// (slugPlural, version), (slugSingular, version) and (name, version) are
// unique among the bundle's definitions, and the versions of one
// slugPlural share its name, slugSingular and scope (they land in one
// .Resources list). The schema must be an object, at most [MaxDepth] levels
// deep, and compile under the same rules as parameter schemas (nothing is
// loaded from outside); YAML scalars keep their YAML 1.2 types.
//
// It returns the definitions sorted by slugPlural, then version; or a
// [*DefinitionsError] listing every problem, each with its file, line and
// field ("schema/properties/size/type" for a problem inside a schema).
func LoadDefinitions(b *bundle.Bundle) ([]*Definition, error) {
	var p strictyaml.Problems
	var defs []*Definition
	for _, name := range slices.Sorted(maps.Keys(b.Definitions)) {
		file := path.Join(DefinitionsDir, name)
		data := b.Definitions[name]
		switch strings.ToLower(path.Ext(name)) {
		case ".yaml", ".yml", ".json":
		default:
			p.Add(file, 0, "", "is not a definition file (want .yaml, .yml or .json)")
			continue
		}
		if len(data) > MaxSchemaBytes {
			p.Add(file, 0, "", "is %d bytes long; the limit is %d", len(data), MaxSchemaBytes)
			continue
		}
		defs = append(defs, loadFile(file, data, &p)...)
	}
	checkUnique(defs, &p)
	if len(p.List) > 0 {
		return nil, &DefinitionsError{Problems: p.List}
	}
	slices.SortFunc(defs, func(a, b *Definition) int {
		if c := strings.Compare(a.SlugPlural, b.SlugPlural); c != 0 {
			return c
		}
		return strings.Compare(a.Version, b.Version)
	})
	return defs, nil
}

// loadFile loads every document of one file.
func loadFile(file string, data []byte, p *strictyaml.Problems) (defs []*Definition) {
	defer func() {
		if r := recover(); r != nil {
			p.Add(file, 0, "", "cannot parse YAML: %v", r)
		}
	}()
	docs := 0
	for doc, err := range strictyaml.Stream(file, data) {
		if err != nil {
			p.List = append(p.List, diag.From(err)...)
			return defs
		}
		if len(doc.Content) == 0 || (doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].ShortTag() == "!!null") {
			continue // an empty document, e.g. after a trailing ---
		}
		docs++
		if d := loadDefinition(file, doc.Content[0], p); d != nil {
			defs = append(defs, d)
		}
	}
	if docs == 0 {
		p.Add(file, 0, "", "defines nothing (the file is empty)")
	}
	return defs
}

// loadDefinition checks and loads one document.
func loadDefinition(file string, n *yaml.Node, p *strictyaml.Problems) *Definition {
	before := len(p.List)
	if n.Kind != yaml.MappingNode {
		p.Add(file, n.Line, "", "a definition is a mapping of name, slugSingular, slugPlural, version, scope and schema")
		return nil
	}
	var raw rawDefinition
	strictyaml.Decode(file, n, &raw, p)
	line := func(field string) int { return strictyaml.LineOf(n, field) }
	has := func(field string) bool {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == field {
				return true
			}
		}
		return false
	}

	check := func(field, value string, re *regexp.Regexp, want string) {
		switch {
		case !has(field):
			p.Add(file, n.Line, field, "is required")
		case value == "":
			p.Add(file, line(field), field, "must not be empty")
		case !re.MatchString(value):
			p.Add(file, line(field), field, "%q is not valid: want %s", value, want)
		case len(value) > maxNameLength:
			p.Add(file, line(field), field, "%q is longer than %d characters", value, maxNameLength)
		}
	}
	check("name", raw.Name, kindRE(), "a kind in UpperCamelCase such as Topic")
	check("slugSingular", raw.SlugSingular, slugRE(), "lowercase letters and digits in words joined by single hyphens, as ^[a-z0-9]+(?:-[a-z0-9]+)*$")
	check("slugPlural", raw.SlugPlural, slugRE(), "lowercase letters and digits in words joined by single hyphens, as ^[a-z0-9]+(?:-[a-z0-9]+)*$")
	check("version", raw.Version, versionRE(), "a Kubernetes API version such as v1, v2beta1 or v1alpha1")
	switch {
	case !has("scope"):
		p.Add(file, n.Line, "scope", "is required (namespaced or cluster)")
	case raw.Scope != ScopeNamespaced && raw.Scope != ScopeCluster:
		p.Add(file, line("scope"), "scope", "%q is not valid: want namespaced or cluster", raw.Scope)
	}

	d := &Definition{
		Name: raw.Name, SlugSingular: raw.SlugSingular, SlugPlural: raw.SlugPlural,
		Version: raw.Version, Scope: raw.Scope, File: file, Line: n.Line,
	}
	if !has("schema") {
		p.Add(file, n.Line, "schema", "is required (the JSON Schema of the resources' spec)")
	} else if raw.Schema.Kind != 0 {
		d.Schema, d.Unique = loadDefinitionSchema(file, &raw.Schema, p)
	}
	if len(p.List) > before {
		return nil
	}
	return d
}

// loadDefinitionSchema converts, checks and compiles a definition's
// schema; it returns its canonical JSON and its unique fields.
func loadDefinitionSchema(file string, n *yaml.Node, p *strictyaml.Problems) (json.RawMessage, []string) {
	conv := &yamlConverter{maxDepth: MaxDepth, lines: map[string]int{}}
	doc, err := conv.value(n, "", 0)
	if err != nil {
		var ce *convError
		if errors.As(err, &ce) {
			p.Add(file, ce.line, "schema"+ce.ptr, "%s", ce.msg)
		} else {
			p.Add(file, n.Line, "schema", "%v", err)
		}
		return nil, nil
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		p.Add(file, n.Line, "schema", "must be a mapping (a JSON Schema object), not %s", jsonKind(doc))
		return nil, nil
	}
	before := len(p.List)
	unique := parseUnique(obj, file, conv.lines, p)
	if err := chargeCompile(nil, file, obj); err != nil {
		p.Add(file, n.Line, "schema", "%v", err)
		return nil, nil
	}
	_, probs := compileSchema(file, obj, true)
	for _, pr := range probs {
		p.Add(file, lineOf(conv.lines, pr.ptr), "schema"+pr.ptr, "%s", pr.msg)
	}
	if len(p.List) > before {
		return nil, nil
	}
	c, err := Canonical(obj)
	if err != nil {
		p.Add(file, n.Line, "schema", "%v", err)
		return nil, nil
	}
	return c, unique
}

// parseUnique reads the top-level `unique` keyword: a list of distinct dot
// paths with non-empty segments. When the schema closes an object with
// additionalProperties: false, the path must name one of its properties.
func parseUnique(obj map[string]any, file string, lines map[string]int, p *strictyaml.Problems) []string {
	raw, ok := obj["unique"]
	if !ok {
		return nil
	}
	arr, ok := raw.([]any)
	if !ok {
		p.Add(file, lineOf(lines, "/unique"), "schema/unique", "must be a list of field paths such as [topicName] or [target.port]")
		return nil
	}
	var out []string
	for i, e := range arr {
		ptr := fmt.Sprintf("/unique/%d", i)
		s, ok := e.(string)
		if !ok || s == "" || slices.Contains(strings.Split(s, "."), "") {
			p.Add(file, lineOf(lines, ptr), "schema"+ptr, "must be a dot path of field names such as topicName or target.port")
			continue
		}
		if slices.Contains(out, s) {
			p.Add(file, lineOf(lines, ptr), "schema"+ptr, "lists %q twice", s)
			continue
		}
		if msg := checkUniquePath(obj, s); msg != "" {
			p.Add(file, lineOf(lines, ptr), "schema"+ptr, "%s", msg)
			continue
		}
		out = append(out, s)
	}
	return out
}

// checkUniquePath reports a unique path whose field the schema forbids.
func checkUniquePath(obj map[string]any, dotted string) string {
	cur := obj
	for _, seg := range strings.Split(dotted, ".") {
		props, _ := cur["properties"].(map[string]any)
		next, ok := props[seg]
		if !ok {
			if ap, isBool := cur["additionalProperties"].(bool); isBool && !ap && cur["patternProperties"] == nil {
				return fmt.Sprintf("%q names a field that the schema does not allow (%q is not among its properties)", dotted, seg)
			}
			return ""
		}
		m, ok := next.(map[string]any)
		if !ok {
			return ""
		}
		cur = m
	}
	return ""
}

// checkUnique reports definitions that collide.
func checkUnique(defs []*Definition, p *strictyaml.Problems) {
	type key struct{ field, value, version string }
	first := map[key]*Definition{}
	for _, d := range defs {
		for _, k := range []key{{"slugPlural", d.SlugPlural, d.Version}, {"slugSingular", d.SlugSingular, d.Version}, {"name", d.Name, d.Version}} {
			if prev, dup := first[k]; dup {
				p.Add(d.File, d.Line, k.field, "%s %q with version %s is already defined in %s:%d", k.field, k.value, k.version, prev.File, prev.Line)
				continue
			}
			first[k] = d
		}
	}
	bySlug := map[string]*Definition{}
	for _, d := range defs {
		prev, ok := bySlug[d.SlugPlural]
		if !ok {
			bySlug[d.SlugPlural] = d
			continue
		}
		if prev.Version == d.Version {
			continue // reported above
		}
		if prev.Name != d.Name || prev.SlugSingular != d.SlugSingular || prev.Scope != d.Scope {
			p.Add(d.File, d.Line, "", "version %s of %s is %s (%s, %s) but version %s in %s:%d is %s (%s, %s): every version of a definition keeps its name, slugSingular and scope",
				d.Version, d.SlugPlural, d.Name, d.SlugSingular, d.Scope, prev.Version, prev.File, prev.Line, prev.Name, prev.SlugSingular, prev.Scope)
		}
	}
}
