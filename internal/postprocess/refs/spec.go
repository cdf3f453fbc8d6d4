package refs

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"k8s.io/client-go/util/jsonpath"
)

// Field names of a getValueFrom reference.
const (
	fieldKind         = "kind"
	fieldAPIVersion   = "apiVersion"
	fieldName         = "name"
	fieldLabels       = "labels"
	fieldNamespace    = "namespace"
	fieldPath         = "path"
	fieldTransformers = "format-transformers"
	fieldDefault      = "defaultValue"
)

// specFields in the order Wanted shows them.
var specFields = []string{fieldKind, fieldAPIVersion, fieldName, fieldLabels, fieldNamespace, fieldPath, fieldTransformers, fieldDefault}

// spec is a parsed getValueFrom.
type spec struct {
	kind         string
	apiVersion   string // "" when absent
	name         string // "" when selecting by labels
	labels       map[string]string
	namespace    string // "" when absent
	path         *compiledPath
	transformers []transformer
	hasDefault   bool
	def          any
}

// parseSpec checks a getValueFrom value. The error is the reason of an
// IllFormedRefError.
func parseSpec(raw any, paths map[string]*compiledPath) (*spec, string) {
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Sprintf("getValueFrom must be a mapping, got %s", describe(raw))
	}
	if msg := checkSpecFields(m); msg != "" {
		return nil, msg
	}
	s := &spec{}
	if msg := s.parseTarget(m); msg != "" {
		return nil, msg
	}
	if msg := s.parsePath(m, paths); msg != "" {
		return nil, msg
	}
	if msg := s.parseTransformers(m); msg != "" {
		return nil, msg
	}
	s.def, s.hasDefault = m[fieldDefault]
	if hasRef(s.def, seg{}, false) {
		return nil, "defaultValue cannot hold a getValueFrom"
	}
	return s, ""
}

// checkSpecFields reports the fields of m that a getValueFrom does not
// have.
func checkSpecFields(m map[string]any) string {
	var unknown []string
	for k := range m {
		if !slices.Contains(specFields, k) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Sprintf("unknown field %s (known fields: %s)", strings.Join(unknown, ", "), strings.Join(specFields, ", "))
	}
	return ""
}

// specString reads the string field f of m: absent ("" or, when
// required, an error), a string, not empty.
func specString(m map[string]any, f string, required bool) (string, string) {
	v, present := m[f]
	if !present {
		if required {
			return "", f + " is required"
		}
		return "", ""
	}
	t, ok := v.(string)
	if !ok {
		return "", fmt.Sprintf("%s must be a string, got %s", f, describe(v))
	}
	if t == "" {
		return "", f + " is empty"
	}
	return t, ""
}

// parseTarget reads what selects the object: kind, apiVersion, name,
// namespace and labels (exactly one of name and labels).
func (s *spec) parseTarget(m map[string]any) string {
	var msg string
	if s.kind, msg = specString(m, fieldKind, true); msg != "" {
		return msg
	}
	if s.apiVersion, msg = specString(m, fieldAPIVersion, false); msg != "" {
		return msg
	}
	if s.apiVersion != "" {
		g, v, found := strings.Cut(s.apiVersion, "/")
		if (found && (g == "" || v == "" || strings.Contains(v, "/"))) || strings.ContainsAny(s.apiVersion, " \t") {
			return fmt.Sprintf("apiVersion %q is not <group>/<version> or <version>", s.apiVersion)
		}
	}
	if s.name, msg = specString(m, fieldName, false); msg != "" {
		return msg
	}
	if s.namespace, msg = specString(m, fieldNamespace, false); msg != "" {
		return msg
	}
	if lv, present := m[fieldLabels]; present {
		if s.labels, msg = parseLabels(lv); msg != "" {
			return msg
		}
	}
	switch {
	case s.name != "" && s.labels != nil:
		return "name and labels are both set; set exactly one of them"
	case s.name == "" && s.labels == nil:
		return "neither name nor labels is set; set exactly one of them"
	}
	return ""
}

// parseLabels reads the labels field: a non-empty mapping of strings.
func parseLabels(lv any) (map[string]string, string) {
	lm, ok := lv.(map[string]any)
	if !ok {
		return nil, fmt.Sprintf("labels must be a mapping of label names to values, got %s", describe(lv))
	}
	if len(lm) == 0 {
		return nil, "labels is empty"
	}
	labels := make(map[string]string, len(lm))
	for k, v := range lm {
		t, ok := v.(string)
		if !ok {
			return nil, fmt.Sprintf("labels.%s must be a string, got %s (quote it)", k, describe(v))
		}
		labels[k] = t
	}
	return labels, ""
}

// parsePath reads the required path, compiling it once per text (paths
// caches the compiled ones).
func (s *spec) parsePath(m map[string]any, paths map[string]*compiledPath) string {
	p, msg := specString(m, fieldPath, true)
	if msg != "" {
		return msg
	}
	if s.path = paths[p]; s.path == nil {
		cp, msg := compilePath(p)
		if msg != "" {
			return msg
		}
		paths[p], s.path = cp, cp
	}
	return ""
}

// parseTransformers reads format-transformers: a list of known names.
func (s *spec) parseTransformers(m map[string]any) string {
	tv, present := m[fieldTransformers]
	if !present {
		return ""
	}
	list, ok := tv.([]any)
	if !ok {
		return fmt.Sprintf("format-transformers must be a list of names, got %s", describe(tv))
	}
	for i, n := range list {
		name, ok := n.(string)
		if !ok {
			return fmt.Sprintf("format-transformers[%d] must be a name, got %s", i, describe(n))
		}
		tr, ok := transformers[name]
		if !ok {
			return fmt.Sprintf("format-transformers[%d]: unknown transformer %q (known: %s)", i, name, strings.Join(transformerNames, ", "))
		}
		s.transformers = append(s.transformers, transformer{name: name, fn: tr})
	}
	return ""
}

// compiledPath is a parsed JSONPath and the fixed part it starts with.
type compiledPath struct {
	text string
	jp   *jsonpath.JSONPath
	// prefix is the leading run of plain fields and non-negative indexes
	// (spec.ports[0] in {.spec.ports[0].port}, spec.ports in
	// {.spec.ports[?(@.name=="http")].port}): everything the path can read
	// lies below it.
	prefix []seg
}

// compilePath parses a path. It must be one JSONPath expression starting
// with "{." and without range/end.
func compilePath(text string) (*compiledPath, string) {
	if !strings.HasPrefix(text, "{.") {
		return nil, fmt.Sprintf("path %q must be a JSONPath expression starting with {.", text)
	}
	p, err := jsonpath.Parse("path", text)
	if err != nil {
		return nil, fmt.Sprintf("path %q: %v", text, err)
	}
	if len(p.Root.Nodes) != 1 {
		return nil, fmt.Sprintf("path %q must be a single {...} expression", text)
	}
	list, ok := p.Root.Nodes[0].(*jsonpath.ListNode)
	if !ok {
		return nil, fmt.Sprintf("path %q must be a single {...} expression", text)
	}
	if msg := checkNodes(list); msg != "" {
		return nil, fmt.Sprintf("path %q: %s", text, msg)
	}
	jp := jsonpath.New("path")
	if err := jp.Parse(text); err != nil {
		return nil, fmt.Sprintf("path %q: %v", text, err)
	}
	cp := &compiledPath{text: text, jp: jp}
	for _, n := range list.Nodes {
		switch n := n.(type) {
		case *jsonpath.FieldNode:
			cp.prefix = append(cp.prefix, seg{key: n.Value})
			continue
		case *jsonpath.ArrayNode:
			if p := n.Params; p[0].Known && p[0].Value >= 0 && p[1].Derived && !p[2].Known {
				cp.prefix = append(cp.prefix, seg{idx: p[0].Value, isIdx: true})
				continue
			}
		}
		break
	}
	return cp, ""
}

// checkNodes rejects what the evaluation of a reference cannot use: the
// range/end identifiers (they make a path stateful) and steps that are not
// positive.
func checkNodes(n jsonpath.Node) string {
	switch n := n.(type) {
	case *jsonpath.ListNode:
		for _, c := range n.Nodes {
			if msg := checkNodes(c); msg != "" {
				return msg
			}
		}
	case *jsonpath.IdentifierNode:
		return fmt.Sprintf("%q is not supported in a reference", n.Name)
	case *jsonpath.ArrayNode:
		if n.Params[2].Known && n.Params[2].Value <= 0 {
			return "the step of a slice must be > 0"
		}
	case *jsonpath.FilterNode:
		if msg := checkNodes(n.Left); msg != "" {
			return msg
		}
		return checkNodes(n.Right)
	case *jsonpath.UnionNode:
		for _, c := range n.Nodes {
			if msg := checkNodes(c); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// eval returns the first value the path selects in m, or a reason why
// there is none.
func (cp *compiledPath) eval(m map[string]any) (v any, reason string) {
	defer func() {
		if p := recover(); p != nil {
			v, reason = nil, fmt.Sprintf("the path cannot be evaluated on this object: %v", p)
		}
	}()
	res, err := cp.jp.FindResults(m)
	if err != nil {
		return nil, err.Error()
	}
	if len(res) == 0 || len(res[0]) == 0 {
		return nil, "the path matches nothing"
	}
	rv := res[0][0]
	if !rv.IsValid() || (rv.Kind() == reflect.Interface && rv.IsNil()) {
		return nil, "the value is null"
	}
	v = rv.Interface()
	if v == nil {
		return nil, "the value is null"
	}
	return v, ""
}

// wanted renders a getValueFrom value as YAML flow, its fields in a fixed
// order, defaultValue left out. It is "" when raw is not a mapping.
func wanted(raw any) string {
	m, ok := raw.(map[string]any)
	if !ok {
		return ""
	}
	var parts []string
	for _, f := range specFields {
		v, present := m[f]
		if !present || f == fieldDefault {
			continue
		}
		parts = append(parts, f+": "+flow(v))
	}
	var unknown []string
	for k := range m {
		if !slices.Contains(specFields, k) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		parts = append(parts, flowString(k)+": "+flow(m[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// flow renders a value compactly, for messages.
func flow(v any) string {
	switch t := v.(type) {
	case string:
		return flowString(t)
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = flowString(k) + ": " + flow(t[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = flow(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case nil:
		return "null"
	default:
		return fmt.Sprint(t)
	}
}

// flowString quotes s when it would not read back as the same plain
// string in YAML flow style.
func flowString(s string) string {
	if s == "" || strings.ContainsAny(s, "{}[],:#&*!|>'\"%@`\n\t") || strings.TrimSpace(s) != s {
		if !strings.Contains(s, "'") && !strings.ContainsAny(s, "\n\t") {
			return "'" + s + "'"
		}
		return strconv.Quote(s)
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "~", "yes", "no", "on", "off":
		return "'" + s + "'"
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return "'" + s + "'"
	}
	return s
}

// describe names the type of a YAML value, for messages.
func describe(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", t)
	case bool:
		return fmt.Sprintf("the boolean %v", t)
	case int64, int, int32:
		return fmt.Sprintf("the integer %v", t)
	case float64, float32:
		return fmt.Sprintf("the number %v", t)
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	default:
		return fmt.Sprintf("a %T", v)
	}
}

// labelString renders labels as k=v pairs sorted by key.
func labelString(l map[string]string) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + l[k]
	}
	return strings.Join(parts, ",")
}
