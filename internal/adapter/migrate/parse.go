package migrate

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// KUDO's API group version and the kinds Import reads.
const (
	kudoAPIVersion = "kudo.dev/v1beta1"
	kindInstance   = "Instance"
	kindOV         = "OperatorVersion"
	kindOperator   = "Operator"
)

// Export holds the KUDO objects of exported files, keyed by
// "namespace/name".
type Export struct {
	Instances map[string]*Instance
	Versions  map[string]*OperatorVersion
	Operators map[string]*Operator
	// Skipped counts objects of other kinds.
	Skipped int
}

// Instance is a kudo.dev/v1beta1 Instance.
type Instance struct {
	Namespace, Name string
	// OperatorVersion is spec.operatorVersion.name.
	OperatorVersion string
	// Operator is the kudo.dev/operator label.
	Operator string
	// Params are spec.parameters: always text.
	Params map[string]string
	// Parent is the name of the Instance that owns this one (a
	// KudoOperator task created it), or "".
	Parent string
	// PlansRun are the plans of status.planStatus that KUDO ran (any
	// status but NEVER_RUN), sorted.
	PlansRun []string
}

// OperatorVersion is a kudo.dev/v1beta1 OperatorVersion: a whole package.
type OperatorVersion struct {
	Namespace, Name     string
	Operator            string
	Version, AppVersion string
	Templates           map[string]string
	Tasks               []any
	Plans               map[string]any
	Params              []Param
}

// Param is a parameter of an OperatorVersion. Defaults and enum values
// are text; those of array and map parameters are YAML.
type Param struct {
	Name, DisplayName, Description, Trigger, Type string
	Required, Immutable                           *bool
	Default                                       *string
	Enum                                          []string
}

// Operator is a kudo.dev/v1beta1 Operator: the package's metadata that
// its OperatorVersions do not hold.
type Operator struct {
	Namespace, Name                             string
	Description, KudoVersion, KubernetesVersion string
	URL                                         string
	Maintainers                                 []any
}

// Key is "namespace/name".
func Key(namespace, name string) string { return namespace + "/" + name }

// Parse reads one exported file: a YAML stream of objects or of `kind:
// List` documents. file names it in messages. Every problem is reported,
// each with the object and the field; objects of other kinds are counted
// in Skipped.
func Parse(file string, data []byte, into *Export) error {
	into.init()
	var errs []error
	doc := 0
	for n, err := range strictyaml.Stream("", data) { // errors say "line N: ..."
		doc++
		if err != nil {
			return fmt.Errorf("%s: document %d: %w", file, doc, err)
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("%s: document %d: %w", file, doc, strictyaml.YAMLErrors("", err)[0])
		}
		errs = append(errs, addDocument(file, doc, v, into)...)
	}
	return joinSorted(errs)
}

func (e *Export) init() {
	if e.Instances == nil {
		e.Instances, e.Versions, e.Operators = map[string]*Instance{}, map[string]*OperatorVersion{}, map[string]*Operator{}
	}
}

// AddObject adds one object read elsewhere (from a cluster, as an
// unstructured map); where locates it in messages. Objects of other kinds
// are counted in Skipped.
func AddObject(where string, obj map[string]any, into *Export) error {
	into.init()
	return joinSorted(addObject(where, obj, into))
}

// addDocument adds an object, or the items of a List.
func addDocument(file string, doc int, v any, into *Export) []error {
	if v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return []error{fmt.Errorf("%s: document %d: not an object (a mapping)", file, doc)}
	}
	if kind, _ := m["kind"].(string); strings.HasSuffix(kind, "List") && m["items"] != nil {
		items, ok := m["items"].([]any)
		if !ok {
			return []error{fmt.Errorf("%s: document %d: items: want a list", file, doc)}
		}
		var errs []error
		for i, it := range items {
			where := fmt.Sprintf("%s: document %d: items[%d]", file, doc, i)
			if o, ok := it.(map[string]any); ok {
				errs = append(errs, addObject(where, o, into)...)
			} else {
				errs = append(errs, fmt.Errorf("%s: not an object (a mapping)", where))
			}
		}
		return errs
	}
	return addObject(fmt.Sprintf("%s: document %d", file, doc), m, into)
}

// addObject adds a KUDO object; where locates it in messages.
func addObject(where string, m map[string]any, into *Export) []error {
	r := reader{obj: m}
	apiVersion, kind := r.str("apiVersion"), r.str("kind")
	if apiVersion != kudoAPIVersion || !slices.Contains([]string{kindInstance, kindOV, kindOperator}, kind) {
		into.Skipped++
		return nil
	}
	ns, name := r.str("metadata", "namespace"), r.str("metadata", "name")
	if name == "" {
		r.fail("metadata.name: is required")
	}
	key := Key(ns, name)
	dup := into.Instances[key] != nil && kind == kindInstance || into.Versions[key] != nil && kind == kindOV || into.Operators[key] != nil && kind == kindOperator
	if dup {
		r.fail("is given twice")
	}
	switch kind {
	case kindInstance:
		into.Instances[key] = r.instance(ns, name)
	case kindOV:
		into.Versions[key] = r.operatorVersion(ns, name)
	default:
		into.Operators[key] = r.operator(ns, name)
	}
	return r.errors(where, named(kind, ns, name))
}

// joinSorted joins errors sorted by message, for a deterministic report.
func joinSorted(errs []error) error {
	slices.SortStableFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return errors.Join(errs...)
}
