package bundle

import "github.com/kudo-render/kudo-render/internal/diag"

// Format says which on-disk layout a bundle was loaded from.
type Format string

const (
	// FormatKUDO is a KUDO v1beta1 operator package (operator.yaml).
	FormatKUDO Format = "kudo"
	// FormatFramework is a KEP-0009 framework bundle (framework.yaml).
	FormatFramework Format = "framework"
)

// Task kinds. KEP-0009 framework tasks are always Apply tasks; a plan step
// with `delete: true` deletes their resources instead.
const (
	KindApply        = "Apply"
	KindDelete       = "Delete"
	KindDummy        = "Dummy"
	KindToggle       = "Toggle"
	KindPipe         = "Pipe"
	KindKudoOperator = "KudoOperator"
)

// Strategies of plans and phases. As in KUDO, only the exact string
// "serial" is serial and an empty strategy is parallel. Any other value
// (a typo such as "Serial", which KUDO ran in parallel) is refused when
// the bundle is loaded: see [StrategyProblem].
const (
	StrategySerial   = "serial"
	StrategyParallel = "parallel"
)

// Strategies lists the strategies a plan or phase may name.
var Strategies = []string{StrategySerial, StrategyParallel}

// Bundle is the normalised model of an operator package or framework bundle.
type Bundle struct {
	Format Format
	// File is the name of the metadata file: operator.yaml or framework.yaml.
	File string

	Name              string
	Version           string // operatorVersion (KUDO) or version (KEP-0009)
	AppVersion        string
	KudoVersion       string
	KubernetesVersion string
	Description       string
	URL               string
	Maintainers       []Maintainer

	// Extends is the raw `extends` clause; a later stage resolves it.
	Extends *Extends

	Tasks  []*Task  // in file order (KUDO) or sorted by name (KEP-0009)
	Plans  []*Plan  // sorted by name
	Params []*Param // in file order
	Groups []Group

	// Templates holds every file below templates/, keyed by its path
	// relative to templates/ ("statefulset.yaml", "jobs/backup.yaml").
	Templates map[string][]byte
	// Warnings are problems KUDO tolerated (unknown fields of a KUDO
	// v1beta1 operator.yaml or params.yaml): a render reports them, and
	// refuses them when strict.
	Warnings []*diag.Diagnostic `json:"-"`
	// Unread lists the files below templates/, common/ and definitions/
	// that were too large to read (path -> why); using one is an error.
	Unread map[string]string `json:"-"`
	// Common holds every file below common/, keyed like Templates.
	Common map[string][]byte
	// Definitions holds every file below definitions/ (extension resource
	// definitions), keyed by path relative to definitions/.
	Definitions map[string][]byte
	// ParamsSchema is params.schema.json, if the bundle has one.
	ParamsSchema []byte
	// BaseParamsSchemas are the params.schema.json of the bases of a
	// merged extension, the immediate base last (nil entries for bases
	// without one).
	BaseParamsSchemas [][]byte
}

// Maintainer of a package. KEP-0009 writes maintainers as "Name <email>".
type Maintainer struct {
	Name  string `yaml:"name,omitempty" json:"name,omitempty"`
	Email string `yaml:"email,omitempty" json:"email,omitempty"`
}

// Extends names the base a framework extends (KEP-0012).
type Extends struct {
	Kudo *ExtendsKudo `yaml:"kudo,omitempty" json:"kudo,omitempty"`
	// Remote is a remote source (git: ...), its fields inline.
	Remote `yaml:",inline"`
	Path   string `yaml:"path,omitempty" json:"path,omitempty"`
}

// ExtendsKudo names a framework and version in a repository.
type ExtendsKudo struct {
	Framework string `yaml:"framework" json:"framework"`
	Version   string `yaml:"version" json:"version"`
}

// Pos is where a definition sits in its file.
type Pos struct {
	File string
	Line int
	// Field is the definition's field path in the file, when known
	// ("parameters[3].default", "NODE_COUNT.default").
	Field string
}

// Task is one task of the package, whatever its kind.
type Task struct {
	Name string
	Kind string

	// Resources are template names (keys of Bundle.Templates); used by
	// Apply, Delete and Toggle tasks.
	Resources []string
	// Patches are kustomize patches (strategic merge or JSON 6902), each
	// a template file with an optional target.
	Patches               []Patch
	PatchesStrategicMerge []string
	// From is KEP-0012's `from: base/<task>`.
	From string

	// Parameter is the boolean parameter of a Toggle task.
	Parameter string

	// Pod and Pipe describe a Pipe task.
	Pod  string
	Pipe []PipeFile

	// Done and WantErr describe a Dummy task.
	Done    bool
	WantErr bool

	// Operator describes a KudoOperator task.
	Operator *KudoOperatorSpec

	// Depth is how many bases down an extension's task was defined: 0 in
	// the bundle itself, 1 in its base... Paths a task names (a
	// KudoOperator package) are relative to where it was defined.
	Depth int `json:"-"`

	Pos Pos `json:"-"`
}

// Patch is one entry of a task's `patches`: a template file holding a
// strategic merge patch or a JSON 6902 patch, and an optional target
// (required by JSON 6902 patches). Target fields are templates too.
type Patch struct {
	Path   string       `yaml:"path" json:"path"`
	Target *PatchTarget `yaml:"target,omitempty" json:"target,omitempty"`
}

// PatchTarget selects the objects a patch applies to, as in kustomize.
type PatchTarget struct {
	Group              string `yaml:"group,omitempty" json:"group,omitempty"`
	Version            string `yaml:"version,omitempty" json:"version,omitempty"`
	Kind               string `yaml:"kind,omitempty" json:"kind,omitempty"`
	Name               string `yaml:"name,omitempty" json:"name,omitempty"`
	Namespace          string `yaml:"namespace,omitempty" json:"namespace,omitempty"`
	LabelSelector      string `yaml:"labelSelector,omitempty" json:"labelSelector,omitempty"`
	AnnotationSelector string `yaml:"annotationSelector,omitempty" json:"annotationSelector,omitempty"`
}

// PipeFile is one file a Pipe task's pod produces.
type PipeFile struct {
	File string `yaml:"file" json:"file"`
	Kind string `yaml:"kind" json:"kind"` // Secret or ConfigMap
	Key  string `yaml:"key" json:"key"`
}

// KudoOperatorSpec is the spec of a KudoOperator task.
type KudoOperatorSpec struct {
	Package         string `yaml:"package" json:"package"`
	AppVersion      string `yaml:"appVersion,omitempty" json:"appVersion,omitempty"`
	OperatorVersion string `yaml:"operatorVersion,omitempty" json:"operatorVersion,omitempty"`
	InstanceName    string `yaml:"instanceName,omitempty" json:"instanceName,omitempty"`
	ParameterFile   string `yaml:"parameterFile,omitempty" json:"parameterFile,omitempty"`
}

// Plan is a named sequence of phases.
type Plan struct {
	Name     string
	Strategy string
	// StrategyLine is the line of `strategy` in the file, 0 when unknown.
	StrategyLine int `json:"-"`
	Phases       []*Phase
	// From is KEP-0012's `from: base/<plan>`.
	From string
	Pos  Pos `json:"-"`
}

// Phase is a group of steps.
type Phase struct {
	Name     string
	Strategy string
	// StrategyLine is the line of `strategy` in the file, 0 when unknown.
	StrategyLine int `json:"-"`
	Steps        []*Step
}

// Step names the tasks that run together.
type Step struct {
	Name  string
	Tasks []string
	// TaskLines are the lines of Tasks in the file (0 when unknown).
	TaskLines []int `json:"-"`
	// Delete (KEP-0009) deletes the resources of the step's tasks.
	Delete bool
}

// ParamType is the declared type of a parameter.
type ParamType string

// Parameter types. An empty type means string.
const (
	TypeString  ParamType = "string"
	TypeInteger ParamType = "integer"
	TypeNumber  ParamType = "number"
	TypeBoolean ParamType = "boolean"
	TypeArray   ParamType = "array"
	TypeMap     ParamType = "map"
)

// Param is one parameter definition.
type Param struct {
	Name        string
	DisplayName string
	Description string
	Hint        string
	Group       string
	Trigger     string
	Type        ParamType
	Immutable   bool
	// Required is the effective value: when params.yaml does not say, a
	// parameter without a default is required (KUDO's rule).
	Required bool
	// Default is the default value, nil when there is none. Scalars keep
	// the text they were written with ("1000000", "true"); sequences and
	// mappings are decoded into []any and map[string]any.
	Default any
	// Enum lists the allowed values (scalars as text), if any.
	Enum []any
	// Fields lists the fields params.yaml wrote for this parameter
	// ("default", "description", ...): an extension's parameter overrides
	// exactly those fields of its base's (KEP-0012).
	Fields map[string]bool `json:"-"`
	Pos    Pos             `json:"-"`
	// DefaultPos is where the default is written: params.yaml, the line
	// of its value and its field path; zero when there is no default. A
	// default a render refuses is reported there.
	DefaultPos Pos `json:"-"`
}

// HasDefault reports whether the parameter declares a default.
func (p *Param) HasDefault() bool { return p.Default != nil }

// NeedsValue reports whether a render must give the parameter a value:
// KUDO's rule, a required parameter (the default when params.yaml does not
// say) without a default. Array and map parameters never need one: KUDO
// stores a missing default of theirs as the text "null", which counts as a
// default.
func (p *Param) NeedsValue() bool {
	return p.Required && !p.HasDefault() && p.Type != TypeArray && p.Type != TypeMap
}

// Group is a parameter group of KUDO params.yaml.
type Group struct {
	Name        string `yaml:"name" json:"name"`
	DisplayName string `yaml:"displayName,omitempty" json:"displayName,omitempty"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
	Priority    int    `yaml:"priority,omitempty" json:"priority,omitempty"`
}

// Task returns the task of that name, or nil.
func (b *Bundle) Task(name string) *Task {
	for _, t := range b.Tasks {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// Plan returns the plan of that name, or nil.
func (b *Bundle) Plan(name string) *Plan {
	for _, p := range b.Plans {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Param returns the parameter of that name, or nil.
func (b *Bundle) Param(name string) *Param {
	for _, p := range b.Params {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// ID is "name@version", used in provenance and messages.
func (b *Bundle) ID() string { return b.Name + "@" + b.Version }
