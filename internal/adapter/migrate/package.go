package migrate

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/internal/visible"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// operatorFile is the operator.yaml of a rebuilt package, in the order
// of KUDO's packages.
type operatorFile struct {
	APIVersion        string         `yaml:"apiVersion"`
	Name              string         `yaml:"name"`
	Description       string         `yaml:"description,omitempty"`
	OperatorVersion   string         `yaml:"operatorVersion"`
	AppVersion        string         `yaml:"appVersion,omitempty"`
	KudoVersion       string         `yaml:"kudoVersion,omitempty"`
	KubernetesVersion string         `yaml:"kubernetesVersion,omitempty"`
	Maintainers       []any          `yaml:"maintainers,omitempty"`
	URL               string         `yaml:"url,omitempty"`
	Tasks             []any          `yaml:"tasks,omitempty"`
	Plans             map[string]any `yaml:"plans,omitempty"`
}

type paramsFile struct {
	APIVersion string      `yaml:"apiVersion"`
	Parameters []paramLine `yaml:"parameters"`
}

type paramLine struct {
	Name        string `yaml:"name"`
	DisplayName string `yaml:"displayName,omitempty"`
	Description string `yaml:"description,omitempty"`
	Required    *bool  `yaml:"required,omitempty"`
	Default     any    `yaml:"default,omitempty"`
	Trigger     string `yaml:"trigger,omitempty"`
	Type        string `yaml:"type,omitempty"`
	Immutable   *bool  `yaml:"immutable,omitempty"`
	Enum        []any  `yaml:"enum,omitempty"`
}

// rebuild writes the package an OperatorVersion holds as a KUDO package
// folder (slash paths below the folder -> content). op may be nil.
func rebuild(ov *OperatorVersion, op *Operator) (map[string][]byte, []string, error) {
	files := map[string][]byte{}
	tasks, notes := dependencyTasks(ov)
	plans, snotes := strategiesAsRun(ov.Plans)
	for _, n := range snotes {
		notes = append(notes, whereOV(ov)+": "+n)
	}
	of := operatorFile{
		APIVersion: kudoAPIVersion, Name: ov.Operator, OperatorVersion: ov.Version, AppVersion: ov.AppVersion,
		Tasks: tasks, Plans: plans,
	}
	if op != nil {
		of.Description, of.KudoVersion, of.KubernetesVersion = op.Description, op.KudoVersion, op.KubernetesVersion
		of.Maintainers, of.URL = op.Maintainers, op.URL
	}
	var err error
	if files["operator.yaml"], err = marshal(of); err != nil {
		return nil, nil, err
	}
	pf := paramsFile{APIVersion: kudoAPIVersion, Parameters: []paramLine{}}
	for i, p := range ov.Params {
		l, err := paramOf(p)
		if err != nil {
			return nil, nil, fmt.Errorf("spec.parameters[%d] (%s): %w", i, p.Name, err)
		}
		pf.Parameters = append(pf.Parameters, l)
	}
	if files["params.yaml"], err = marshal(pf); err != nil {
		return nil, nil, err
	}
	for name, text := range ov.Templates { // names checked by checkNames
		files["templates/"+name] = []byte(text)
	}
	return files, notes, nil
}

// dependencyTasks returns the tasks of ov with the package of each
// KudoOperator task that is a path ("./zookeeper", "../zk") replaced by
// its last element: the rebuilt package has no folder next to it, and the
// FrameworkRender's repositories find operators/<package>/<version>/.
func dependencyTasks(ov *OperatorVersion) ([]any, []string) {
	var notes []string
	out := make([]any, len(ov.Tasks))
	for i, t := range ov.Tasks {
		out[i] = t
		m, ok := t.(map[string]any)
		if !ok || m["kind"] != "KudoOperator" {
			continue
		}
		spec, _ := m["spec"].(map[string]any)
		p, _ := spec["package"].(string)
		if !strings.HasPrefix(p, ".") && !strings.HasPrefix(p, "/") {
			continue
		}
		name := path.Base(path.Clean(p))
		if v, _ := spec["operatorVersion"].(string); name == v { // ../zookeeper/0.3.3
			name = path.Base(path.Dir(path.Clean(p)))
		}
		spec2 := maps.Clone(spec)
		spec2["package"] = name
		m2 := maps.Clone(m)
		m2["spec"] = spec2
		out[i] = m2
		notes = append(notes, fmt.Sprintf("%s: task %s: the dependency %q is a path; the rebuilt package names it %q, found in operators/%s/", whereOV(ov), quote(fmt.Sprint(m["name"])), p, name, visible.Escape(name)))
	}
	return out, notes
}

// paramOf converts a parameter back to its params.yaml form: the YAML
// text of array and map defaults becomes YAML again.
func paramOf(p Param) (paramLine, error) {
	l := paramLine{
		Name: p.Name, DisplayName: p.DisplayName, Description: p.Description, Required: p.Required,
		Trigger: p.Trigger, Type: p.Type, Immutable: p.Immutable,
	}
	structured := p.Type == "array" || p.Type == "map"
	if p.Default != nil {
		if !structured {
			l.Default = *p.Default
		} else {
			v, err := parseValue(*p.Default)
			if err != nil {
				return l, fmt.Errorf("default: %w", err)
			}
			l.Default = v // "null": no default, as KUDO stores a missing one
		}
	}
	for _, e := range p.Enum {
		if !structured {
			l.Enum = append(l.Enum, e)
			continue
		}
		v, err := parseValue(e)
		if err != nil {
			return l, fmt.Errorf("enum: %w", err)
		}
		l.Enum = append(l.Enum, v)
	}
	return l, nil
}

// parseValue decodes the YAML text of an array or map value, bounded.
func parseValue(s string) (any, error) {
	if err := strictyaml.CheckValues([]byte(s), "a parameter value"); err != nil {
		return nil, err
	}
	var v any
	if err := strictyaml.Unmarshal("", []byte(s), &v); err != nil {
		return nil, fmt.Errorf("not YAML: %v", err)
	}
	return v, nil
}

// marshal encodes v as YAML with two-space indentation.
func marshal(v any) ([]byte, error) {
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// strategiesAsRun returns plans with each plan or phase strategy KUDO did
// not know ("Serial", "sequential") written as what KUDO ran it as:
// parallel (only the exact "serial" was serial). kudo-render refuses such
// values in packages, where they are typos; in a live install they are
// what ran, and the rebuilt package must keep the order the cluster has.
// The notes name each rewrite.
func strategiesAsRun(plans map[string]any) (map[string]any, []string) {
	var notes []string
	fix := func(m map[string]any, where string) {
		if s, ok := m["strategy"].(string); ok && s != "serial" && s != "parallel" {
			m["strategy"] = "parallel"
			notes = append(notes, fmt.Sprintf("%s.strategy %q ran in parallel under KUDO (only \"serial\" is serial): written as parallel", where, s))
		}
	}
	out := make(map[string]any, len(plans))
	for _, name := range slices.Sorted(maps.Keys(plans)) {
		pl, ok := plans[name].(map[string]any)
		if !ok {
			out[name] = plans[name]
			continue
		}
		pl = maps.Clone(pl)
		fix(pl, "plans."+visible.Escape(name))
		if phases, ok := pl["phases"].([]any); ok {
			phases = slices.Clone(phases)
			for i, ph := range phases {
				if m, ok := ph.(map[string]any); ok {
					m = maps.Clone(m)
					fix(m, fmt.Sprintf("plans.%s.phases[%d]", visible.Escape(name), i))
					phases[i] = m
				}
			}
			pl["phases"] = phases
		}
		out[name] = pl
	}
	return out, notes
}
