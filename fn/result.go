package fn

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// KRMResult is one entry of a ResourceList's results, field for field
// kyaml's framework.Result (TestResultMatchesKyaml checks the two encode
// the same). kyaml's framework package is not linked into the binary: it
// brings kube-openapi's validation, whose initialisers cost every command
// about 8 ms of start-up.
type KRMResult struct {
	Message     string                   `yaml:"message,omitempty" json:"message,omitempty"`
	Severity    string                   `yaml:"severity,omitempty" json:"severity,omitempty"`
	ResourceRef *yaml.ResourceIdentifier `yaml:"resourceRef,omitempty" json:"resourceRef,omitempty"`
	Field       *ResultField             `yaml:"field,omitempty" json:"field,omitempty"`
	File        *ResultFile              `yaml:"file,omitempty" json:"file,omitempty"`
	Tags        map[string]string        `yaml:"tags,omitempty" json:"tags,omitempty"`
}

// ResultField is framework.Field: the field a result refers to.
type ResultField struct {
	Path          string `yaml:"path,omitempty" json:"path,omitempty"`
	CurrentValue  any    `yaml:"currentValue,omitempty" json:"currentValue,omitempty"`
	ProposedValue any    `yaml:"proposedValue,omitempty" json:"proposedValue,omitempty"`
}

// ResultFile is framework.File: the file a result refers to.
type ResultFile struct {
	Path  string `yaml:"path,omitempty" json:"path,omitempty"`
	Index int    `yaml:"index,omitempty" json:"index,omitempty"`
}

// Severities, as kyaml spells them.
const (
	severityError   = "error"
	severityWarning = "warning"
	severityInfo    = "info"
)

// String is the result as kyaml's framework.Result writes it:
// "[severity] apiVersion/kind/namespace/name field: message".
func (r KRMResult) String() string {
	var id []string
	if ref := r.ResourceRef; ref != nil {
		for _, s := range []string{ref.APIVersion, ref.Kind, ref.Namespace, ref.Name} {
			if s != "" {
				id = append(id, s)
			}
		}
	}
	sev := r.Severity
	if sev == "" {
		sev = severityInfo
	}
	s := "[" + sev + "]"
	if len(id) > 0 {
		s += " " + strings.Join(id, "/")
	}
	if r.Field != nil {
		s += " " + r.Field.Path
	}
	return fmt.Sprintf("%s: %s", s, r.Message)
}

// KRMResults are the results of a failed run; as an error, their
// messages as framework.Results joins them.
type KRMResults []*KRMResult

func (rs KRMResults) Error() string {
	msgs := make([]string, len(rs))
	for i, r := range rs {
		msgs[i] = r.String()
	}
	return strings.Join(msgs, "\n\n")
}
