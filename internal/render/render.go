package render

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Instance names what is rendered.
type Instance struct {
	Name      string
	Namespace string
}

// Options tune rendering.
type Options struct {
	// PublisherImage runs kubectl in the Job that publishes a Pipe task's
	// files. Default: DefaultPublisherImage.
	PublisherImage string
	// Resources are what templates see as .Resources: the objects of the
	// framework's resource definitions, by slugPlural.
	Resources map[string][]any
	// Budget is the budget of the render this renderer is part of: the
	// text, values and objects of its templates and patches are charged
	// to it. Nil bounds each template alone.
	Budget *limits.Budget
}

// DefaultPublisherImage is the default image of the pipe publisher.
const DefaultPublisherImage = "docker.io/bitnami/kubectl:1.31"

// Step says where in a plan a task runs.
type Step struct {
	Plan, Phase, Step, Task string
	// Pipes is what templates see as .Pipes.
	Pipes map[string]string
}

// Rendered is one object and the template it came from.
type Rendered struct {
	Template string // bundle path, e.g. "templates/service.yaml"
	Obj      *object.Object
	// Hook marks objects that must run once (the pipe Job).
	Hook bool
}

// Error is a rendering problem of one task.
type Error struct {
	Task  string // task name; "" for common/
	Where string // plan.phase.step
	Err   error
}

func (e *Error) Error() string {
	if e.Task == "" {
		return fmt.Sprintf("cannot render common/: %v", e.Err)
	}
	return fmt.Sprintf("cannot render task %q (%s): %v", e.Task, e.Where, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Renderer renders the tasks of one bundle for one instance.
type Renderer struct {
	b      *bundle.Bundle
	params map[string]any
	inst   Instance
	opts   Options
	parsed map[string]*tmpl.Template
}

// New returns a Renderer.
func New(b *bundle.Bundle, values params.Values, inst Instance, opts Options) *Renderer {
	if opts.PublisherImage == "" {
		opts.PublisherImage = DefaultPublisherImage
	}
	return &Renderer{b: b, params: values, inst: inst, opts: opts, parsed: map[string]*tmpl.Template{}}
}

// Vars returns the template variables of a step, exactly KUDO's.
func (r *Renderer) Vars(s Step) map[string]any {
	pipes := s.Pipes
	if pipes == nil {
		pipes = map[string]string{}
	}
	return map[string]any{
		"OperatorName":    r.b.Name,
		"OperatorVersion": r.b.Version,
		"AppVersion":      r.b.AppVersion,
		"Name":            r.inst.Name,
		"Namespace":       r.inst.Namespace,
		"PlanName":        s.Plan,
		"PhaseName":       s.Phase,
		"StepName":        s.Step,
		"Params":          copyParams(r.params),
		"Pipes":           pipes,
		"Resources":       r.resources(),
	}
}

// resources gives templates a copy of .Resources (Sprig's set must not
// leak from one template to the next).
func (r *Renderer) resources() map[string]any {
	out := make(map[string]any, len(r.opts.Resources))
	for k, v := range r.opts.Resources {
		out[k] = v
	}
	return object.New(out).DeepCopy().Map
}

// copyParams gives each template execution its own copy of the
// parameters: Sprig's set and unset mutate maps, and one template must not
// change what the next one sees (nor the caller's values).
func copyParams(p map[string]any) map[string]any {
	return object.New(map[string]any(p)).DeepCopy().Map
}

func (r *Renderer) template(path string, src []byte) (*tmpl.Template, error) {
	if t, ok := r.parsed[path]; ok {
		return t, nil
	}
	t, err := parseShared(path, src)
	if err != nil {
		return nil, err
	}
	r.parsed[path] = t
	return t, nil
}

// parsed templates are shared by every renderer of the process, by name
// and source: a ResourceList of 1,000 instances of one package parses
// each template once. A parsed template is only read when executed (each
// execution runs a copy), so renderers on several goroutines share it.
// The cache stops growing at maxSharedBytes of template source.
var parsed struct {
	sync.Mutex
	m     map[[32]byte]*tmpl.Template
	bytes int
}

const maxSharedBytes = 64 << 20

func parseShared(path string, src []byte) (*tmpl.Template, error) {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write(src)
	var key [32]byte
	h.Sum(key[:0])
	parsed.Lock()
	t, ok := parsed.m[key]
	parsed.Unlock()
	if ok {
		return t, nil
	}
	t, err := tmpl.Parse(path, src)
	if err != nil {
		return nil, err
	}
	parsed.Lock()
	defer parsed.Unlock()
	if parsed.bytes+len(src) <= maxSharedBytes {
		if parsed.m == nil {
			parsed.m = map[[32]byte]*tmpl.Template{}
		}
		parsed.m[key] = t
		parsed.bytes += len(src)
	}
	return t, nil
}

// run executes a template file (parsed once per renderer) within the
// render's budget.
func (r *Renderer) run(path string, src []byte, vars map[string]any) (*tmpl.Output, error) {
	t, err := r.template(path, src)
	if err != nil {
		return nil, err
	}
	defer activity.DoingFunc(func() string { return r.doing("executing " + path) })()
	return t.ExecuteWithin(vars, r.opts.Budget)
}

// doing describes an activity of this renderer for the watchdog.
func (r *Renderer) doing(what string) string {
	return fmt.Sprintf("%s (instance %q of %s)", what, r.inst.Name, r.b.ID())
}

// maxLineText is the size of rendered text up to which its objects keep
// it to name the template line of any field in messages; the objects of
// a larger output name the line their document starts on, so that the
// text (57 MB for 100,000 documents) is not held for the whole render.
const maxLineText = 4 << 20

// execute renders one template file into objects.
func (r *Renderer) execute(path string, src []byte, vars map[string]any) ([]Rendered, error) {
	out, err := r.run(path, src, vars)
	if err != nil {
		return nil, err
	}
	done := activity.DoingFunc(func() string { return r.doing("decoding the output of " + path) })
	docs, err := tmpl.Decode(out)
	done()
	if err != nil {
		return nil, err
	}
	objs := make([]Rendered, 0, len(docs))
	keep := len(out.Text) <= maxLineText
	for i, d := range docs {
		o := object.New(d.Map)
		o.Bool11 = d.Bool11
		if keep {
			o.Line = out.FieldLine(i)
		} else {
			start := d.Line
			o.Line = func(string) int { return start }
		}
		objs = append(objs, Rendered{Template: path, Obj: o})
	}
	return objs, nil
}

// vars is Vars within the render's budget: the copy of the parameters
// it makes for the step is charged (values and bytes) before it is made.
func (r *Renderer) vars(s Step) (map[string]any, error) {
	if err := r.opts.Budget.ChargeValue(map[string]any(r.params), r.doing("the parameters given to task "+strconv.Quote(s.Task))); err != nil {
		return nil, err
	}
	return r.Vars(s), nil
}

// Resources renders the named templates of a task.
func (r *Renderer) Resources(s Step, resources []string) ([]Rendered, error) {
	vars, err := r.vars(s)
	if err != nil {
		return nil, r.fail(s, err)
	}
	var out []Rendered
	for _, name := range resources {
		src, ok := r.b.Templates[name]
		if !ok {
			return nil, r.fail(s, fmt.Errorf("template %q is not in templates/", name))
		}
		objs, err := r.execute(bundle.TemplatePath(name), src, vars)
		if err != nil {
			return nil, r.fail(s, err)
		}
		out = append(out, objs...)
	}
	return out, nil
}

// Common renders common/: manifests shared by every instance of the
// framework. They see the framework's variables only.
func (r *Renderer) Common() ([]Rendered, error) {
	vars := map[string]any{
		"OperatorName":    r.b.Name,
		"OperatorVersion": r.b.Version,
		"AppVersion":      r.b.AppVersion,
	}
	var out []Rendered
	for _, name := range slices.Sorted(maps.Keys(r.b.Common)) {
		objs, err := r.execute("common/"+name, r.b.Common[name], vars)
		if err != nil {
			return nil, &Error{Err: err}
		}
		out = append(out, objs...)
	}
	return out, nil
}

func (r *Renderer) fail(s Step, err error) error {
	return &Error{Task: s.Task, Where: strings.Join([]string{s.Plan, s.Phase, s.Step}, "."), Err: err}
}

// ParameterFile renders the parameter file of a KudoOperator task with
// the instance's variables (no plan, phase, step or pipes, as in KUDO)
// and reads it as a map of parameter values. An empty name gives no
// values.
func (r *Renderer) ParameterFile(name string) (map[string]any, error) {
	if name == "" {
		return map[string]any{}, nil
	}
	src, ok := r.b.Templates[name]
	if !ok {
		return nil, fmt.Errorf("parameter file %q is not in templates/", name)
	}
	if err := r.opts.Budget.ChargeValue(map[string]any(r.params), r.doing("the parameters given to the parameter file "+bundle.TemplatePath(name))); err != nil {
		return nil, err
	}
	vars := map[string]any{
		"OperatorName":    r.b.Name,
		"OperatorVersion": r.b.Version,
		"AppVersion":      r.b.AppVersion,
		"Name":            r.inst.Name,
		"Namespace":       r.inst.Namespace,
		"Params":          copyParams(r.params),
	}
	path := bundle.TemplatePath(name)
	out, err := r.run(path, src, vars)
	if err != nil {
		return nil, err
	}
	values := map[string]any{}
	var m *yaml.Node
	for doc, err := range strictyaml.Stream(path, out.Text) { // the first document
		var pr *diag.Diagnostic
		if errors.As(err, &pr) {
			return nil, &tmpl.Error{Template: path, Line: out.SourceLine(pr.Line), Msg: "parameter file is not YAML after rendering: " + pr.Msg}
		}
		if len(doc.Content) > 0 {
			m = doc.Content[0]
		}
		break
	}
	if m == nil {
		return values, nil
	}
	if m.Kind != yaml.MappingNode {
		return nil, &tmpl.Error{Template: path, Line: out.SourceLine(m.Line), Msg: "a parameter file is a mapping of parameter name to value"}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		v, err := strictyaml.Value(m.Content[i+1])
		if err != nil {
			return nil, &tmpl.Error{Template: path, Line: out.SourceLine(m.Content[i].Line), Msg: err.Error()}
		}
		values[m.Content[i].Value] = v
	}
	return values, nil
}
