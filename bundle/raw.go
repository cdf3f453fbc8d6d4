package bundle

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// The raw* types mirror the files exactly; checkKnown uses their yaml tags
// to reject unknown fields.

type rawOperator struct {
	APIVersion        string                 `yaml:"apiVersion"`
	Name              string                 `yaml:"name"`
	Description       string                 `yaml:"description"`
	OperatorVersion   string                 `yaml:"operatorVersion"`
	AppVersion        string                 `yaml:"appVersion"`
	KudoVersion       string                 `yaml:"kudoVersion"`
	KubernetesVersion string                 `yaml:"kubernetesVersion"`
	Maintainers       []rawMaintainer        `yaml:"maintainers"`
	URL               string                 `yaml:"url"`
	NamespaceManifest string                 `yaml:"namespaceManifest"`
	Extends           *Extends               `yaml:"extends"`
	Tasks             []rawKudoTask          `yaml:"tasks"`
	Plans             map[string]rawKudoPlan `yaml:"plans"`
}

type rawKudoTask struct {
	Name string          `yaml:"name"`
	Kind string          `yaml:"kind"`
	Spec rawKudoTaskSpec `yaml:"spec"`
	line int
}

func (t *rawKudoTask) UnmarshalYAML(n *yaml.Node) error {
	type plain rawKudoTask
	if err := n.Decode((*plain)(t)); err != nil {
		return err
	}
	t.line = n.Line
	return nil
}

type rawKudoTaskSpec struct {
	// Apply, Delete, Toggle
	Resources []string `yaml:"resources"`
	// Toggle
	Parameter string `yaml:"parameter"`
	// Pipe
	Pod  string     `yaml:"pod"`
	Pipe []PipeFile `yaml:"pipe"`
	// Dummy
	Done    bool `yaml:"done"`
	WantErr bool `yaml:"wantErr"`
	// KudoOperator
	Package         string `yaml:"package"`
	AppVersion      string `yaml:"appVersion"`
	OperatorVersion string `yaml:"operatorVersion"`
	InstanceName    string `yaml:"instanceName"`
	ParameterFile   string `yaml:"parameterFile"`
}

type rawKudoPlan struct {
	Strategy     string         `yaml:"strategy"`
	Phases       []rawKudoPhase `yaml:"phases"`
	line         int
	strategyLine int
}

func (p *rawKudoPlan) UnmarshalYAML(n *yaml.Node) error {
	type plain rawKudoPlan
	if err := n.Decode((*plain)(p)); err != nil {
		return err
	}
	p.line = n.Line
	p.strategyLine = valueLine(n, "strategy")
	return nil
}

type rawKudoPhase struct {
	Name         string        `yaml:"name"`
	Strategy     string        `yaml:"strategy"`
	Steps        []rawKudoStep `yaml:"steps"`
	strategyLine int
}

func (p *rawKudoPhase) UnmarshalYAML(n *yaml.Node) error {
	type plain rawKudoPhase
	if err := n.Decode((*plain)(p)); err != nil {
		return err
	}
	p.strategyLine = valueLine(n, "strategy")
	return nil
}

// valueLine is the line of the value of key in the mapping n, 0 when n
// is not a mapping or has no such key.
func valueLine(n *yaml.Node, key string) int {
	if n.Kind != yaml.MappingNode {
		return 0
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1].Line
		}
	}
	return 0
}

type rawKudoStep struct {
	Name      string   `yaml:"name"`
	Tasks     []string `yaml:"tasks"`
	taskLines []int
}

func (s *rawKudoStep) UnmarshalYAML(n *yaml.Node) error {
	type plain rawKudoStep
	if err := n.Decode((*plain)(s)); err != nil {
		return err
	}
	s.taskLines = itemLines(n, "tasks")
	return nil
}

// itemLines are the lines of the items of the sequence under key in the
// mapping n, nil when there is none.
func itemLines(n *yaml.Node, key string) []int {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key && n.Content[i+1].Kind == yaml.SequenceNode {
			lines := make([]int, len(n.Content[i+1].Content))
			for j, item := range n.Content[i+1].Content {
				lines[j] = item.Line
			}
			return lines
		}
	}
	return nil
}

type rawFramework struct {
	APIVersion        string                      `yaml:"apiVersion"`
	Name              string                      `yaml:"name"`
	Description       string                      `yaml:"description"`
	Version           string                      `yaml:"version"`
	AppVersion        string                      `yaml:"appVersion"`
	KudoVersion       string                      `yaml:"kudoVersion"`
	KubeVersion       string                      `yaml:"kubeVersion"`
	KubernetesVersion string                      `yaml:"kubernetesVersion"`
	Maintainers       []rawMaintainer             `yaml:"maintainers"`
	URL               string                      `yaml:"url"`
	Extends           *Extends                    `yaml:"extends"`
	Tasks             map[string]rawFrameworkTask `yaml:"tasks"`
	Plans             map[string]rawFrameworkPlan `yaml:"plans"`
}

type rawFrameworkTask struct {
	// Kind and Parameter are kudo-render extensions so that framework
	// bundles can use Toggle tasks; the default kind is Apply.
	Kind      string   `yaml:"kind"`
	Parameter string   `yaml:"parameter"`
	From      string   `yaml:"from"`
	Resources []string `yaml:"resources"`
	// Patches entries are a file name or {path, target}; `patch` and
	// `path` are KEP-0012's spellings of the same field.
	Patches               []yaml.Node `yaml:"patches"`
	Patch                 []yaml.Node `yaml:"patch"`
	Path                  []yaml.Node `yaml:"path"`
	PatchesStrategicMerge []string    `yaml:"patchesStrategicMerge"`
	line                  int
}

func (t *rawFrameworkTask) UnmarshalYAML(n *yaml.Node) error {
	type plain rawFrameworkTask
	if err := n.Decode((*plain)(t)); err != nil {
		return err
	}
	t.line = n.Line
	return nil
}

type rawFrameworkPlan struct {
	From  string             `yaml:"from"`
	Steps []rawFrameworkStep `yaml:"steps"`
	line  int
}

func (p *rawFrameworkPlan) UnmarshalYAML(n *yaml.Node) error {
	type plain rawFrameworkPlan
	if err := n.Decode((*plain)(p)); err != nil {
		return err
	}
	p.line = n.Line
	return nil
}

type rawFrameworkStep struct {
	Name      string   `yaml:"name"`
	Tasks     []string `yaml:"tasks"`
	Delete    bool     `yaml:"delete"`
	taskLines []int
}

func (s *rawFrameworkStep) UnmarshalYAML(n *yaml.Node) error {
	type plain rawFrameworkStep
	if err := n.Decode((*plain)(s)); err != nil {
		return err
	}
	s.taskLines = itemLines(n, "tasks")
	return nil
}

// rawMaintainer accepts {name, email} and KEP-0009's "Name <email>".
// It is not opaque to strictyaml: a mapping is checked for unknown fields
// like any struct (the "Name <email>" string form has none).
type rawMaintainer Maintainer

func (m *rawMaintainer) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		s := strings.TrimSpace(n.Value)
		if i := strings.LastIndex(s, "<"); i >= 0 && strings.HasSuffix(s, ">") {
			m.Name = strings.TrimSpace(s[:i])
			m.Email = s[i+1 : len(s)-1]
		} else {
			m.Name = s
		}
		return nil
	}
	var v struct {
		Name  string `yaml:"name"`
		Email string `yaml:"email"`
	}
	if err := n.Decode(&v); err != nil {
		return err
	}
	*m = rawMaintainer(v)
	return nil
}

type rawParamsFile struct {
	APIVersion string     `yaml:"apiVersion"`
	Parameters []rawParam `yaml:"parameters"`
	Groups     []Group    `yaml:"groups"`
}

type rawParam struct {
	Name        string      `yaml:"name"`
	DisplayName string      `yaml:"displayName"`
	Description string      `yaml:"description"`
	Hint        string      `yaml:"hint"`
	Group       string      `yaml:"group"`
	Trigger     string      `yaml:"trigger"`
	Type        string      `yaml:"type"`
	Immutable   *bool       `yaml:"immutable"`
	Required    *bool       `yaml:"required"`
	Default     yaml.Node   `yaml:"default"`
	Enum        []yaml.Node `yaml:"enum"`
}
