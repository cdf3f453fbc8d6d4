package fn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/postprocess/digest"
	"github.com/kudo-render/kudo-render/internal/postprocess/refs"
	"github.com/kudo-render/kudo-render/internal/runner"
	"github.com/kudo-render/kudo-render/internal/schema"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Annotations of generated objects in the KRM function's output.
const (
	// AnnOwner marks the objects a render generated: framework/namespace/instance
	// (ibmcloud.ibm.com/Composable/namespace/name for a Composable's
	// object). A later run replaces objects with the same marker.
	AnnOwner = "kudorender.dev/owner"
	// RenderedDir is where generated objects are written in a package.
	RenderedDir = "rendered"
)

// Function is the KRM function: it reads a ResourceList, renders the
// framework its functionConfig names (and the kudo.dev/v1beta1 Instance
// objects among the items), and returns the items plus the rendered
// objects; the items it consumes are marked local-config ([AnnLocalConfig]).
// It is a framework.ResourceListProcessor ([Function.Process]); [Function.Run]
// reads and writes the ResourceList through kyaml's fn/framework.
type Function struct {
	// Dir is the working directory the orchestrator gives (the
	// kustomization or package root). Framework paths are relative to it
	// and may not leave it.
	Dir     string
	Sources runner.Sources
	// SourcesFor, when set, gives the sources for the functionConfig once
	// it is read (credentials may depend on the hosts it names).
	SourcesFor func(*config.Config) runner.Sources
	// Warn receives warnings (stderr).
	Warn func(string)
	// notes are the notes of the last run (conversions to other API
	// versions), returned as results of severity info.
	notes []*diag.Diagnostic
	// Limits bound the input; the zero value means limits.Current().
	Limits limits.Limits
	// encoded holds the text of each object the last Process generated,
	// by its node: Run writes it as the CLI writes the object.
	encoded map[*yaml.Node][]byte
	// path forces the framework or the fast path (tests); auto when zero.
	path readPath
	// budget is the render budget of the run: the items the function
	// decodes are charged to it, and the render spends the rest.
	budget *limits.Budget
}

var _ framework.ResourceListProcessor = (*Function)(nil)

// Run executes the function on a ResourceList read from in and writes the
// result to out. When nothing changes, the input is written as it was.
// When the function fails, the input items are written back with the
// errors as results (how KRM orchestrators learn why), and the error is
// returned, so the caller exits non-zero; input that is not a
// ResourceList at all writes nothing.
func (f *Function) Run(in io.Reader, out io.Writer) error {
	list, err := f.Output(in)
	if list != nil {
		if _, werr := out.Write(list); werr != nil {
			return werr
		}
	}
	return err
}

// Output is Run's output as one slice, for callers that write it whole
// (no copy): the ResourceList, and the error of a failed run, whose list
// carries the errors as results; nil when the input is no ResourceList.
// kyaml's fn/framework reads the list and [Function.Process] runs on it;
// very large lists take the fast path (fastpath.go), which writes the
// same bytes.
func (f *Function) Output(in io.Reader) ([]byte, error) {
	lim := f.limits()
	done := activity.Doing("reading the ResourceList on stdin")
	data, err := io.ReadAll(io.LimitReader(in, lim.KRMInputBytes+1))
	done()
	if err != nil {
		return nil, fmt.Errorf("cannot read the ResourceList: %w", err)
	}
	if int64(len(data)) > lim.KRMInputBytes {
		return nil, limits.Err("krm-input-bytes", lim.KRMInputBytes, "the ResourceList on stdin")
	}
	if err := strictyaml.CheckText(data); err != nil {
		return nil, fmt.Errorf("cannot read the ResourceList: %v", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errEmptyInput
	}
	defer activity.Doing(fmt.Sprintf("running the KRM function on the ResourceList on stdin (%d bytes)", len(data)))()
	if f.path == fastPath || f.path == autoPath && veryLarge(data, lim) {
		return f.fastOutput(data, lim)
	}
	return f.frameworkOutput(data, lim)
}

func (f *Function) limits() limits.Limits {
	if f.Limits != (limits.Limits{}) {
		return f.Limits.WithDefaults()
	}
	return limits.Current()
}

// checkItems bounds the items of a ResourceList: both paths call it once
// they know how many items the list holds, before any item's header is
// read or anything renders.
func checkItems(n int, lim limits.Limits) error {
	if int64(n) > lim.KRMItems {
		return limits.Err("krm-items", lim.KRMItems, "the ResourceList")
	}
	return nil
}

// Process implements framework.ResourceListProcessor: it renders what the
// functionConfig and the Instance items ask for and replaces rl.Items with
// the output items. Errors are appended to rl.Results and returned as
// framework.Results (kyaml's ResourceList.Filter would swallow them); the
// notes of a successful run are appended as results of severity info.
func (f *Function) Process(rl *framework.ResourceList) error {
	_, err := f.processList(rl)
	return err
}

// processList is Process, and reports whether rl changed.
func (f *Function) processList(rl *framework.ResourceList) (bool, error) {
	f.encoded = nil
	items, err := nodeItems(rl.Items)
	var out []outItem
	legacy := map[*object.Object]string{}
	if err == nil {
		out, err = f.process(items, rl.FunctionConfig, legacy)
	}
	if err != nil {
		rl.Results = append(rl.Results, toResults(err)...)
		return true, rl.Results
	}
	if out == nil {
		return false, nil
	}
	nodes, err := f.outputNodes(out, legacy)
	if err != nil {
		return false, err
	}
	rl.Items = nodes
	rl.Results = append(rl.Results, f.noteResults()...)
	return true, nil
}

// noteResults are the notes of the last run as results of severity info.
func (f *Function) noteResults() framework.Results {
	var notes framework.Results
	for _, d := range f.notes {
		notes = append(notes, Result(d))
	}
	return notes
}

// outItem is an item of the output: an input item (maybe marked), or an
// object to encode.
type outItem struct {
	in  *item
	obj *object.Object
}

func inputItems(items []*item) []outItem {
	out := make([]outItem, len(items))
	for i, it := range items {
		out[i] = outItem{in: it}
	}
	return out
}

// process renders what the functionConfig and the Instance items ask for.
// It returns nil when the output is the input.
func (f *Function) process(items []*item, fc *yaml.RNode, legacy map[*object.Object]string) ([]outItem, error) {
	f.notes = nil
	f.budget = limits.NewBudget(f.limits())
	cfg, err := f.config(fc)
	if err != nil {
		return nil, err
	}
	if f.SourcesFor != nil {
		f.Sources = f.SourcesFor(cfg)
	}
	reqs, sources, err := f.requests(context.Background(), cfg, items)
	if err != nil {
		return nil, err
	}
	// Nothing to render (no framework, no Instance item): the input as
	// it was.
	if len(reqs) == 0 {
		return nil, nil
	}
	if it := functionConfigItem(items, fc); it != nil {
		sources[it] = true
	}
	isSource := func(it *item) bool { return sources[it] || it.isInstance() || it.isComposable() }
	marked, err := markSources(items, isSource)
	if err != nil {
		return nil, err
	}
	in := &renderInput{items: items, sources: sources, marked: marked, budget: f.budget}
	out, current, err := f.render(cfg, reqs, in, formatOf(items), legacy)
	if err != nil || !current {
		return out, err
	}
	// The input already holds what this render makes, each object with
	// its processed-marker: leave everything untouched (no churn, no
	// update loop, an object edited since kept) but for the local-config
	// marker of the items the render consumes.
	if len(marked) == 0 {
		return nil, nil
	}
	return withMarks(items, marked), nil
}

// withMarks is the input items as they were read, those of marked
// marked.
func withMarks(items []*item, marked map[*item]*item) []outItem {
	out := make([]outItem, len(items))
	for i, it := range items {
		out[i] = outItem{in: it}
		if m, ok := marked[it]; ok {
			out[i].in = m
		}
	}
	return out
}

// requests builds the render requests: the functionConfig's framework
// (with the input items of its resource definitions) and one per
// Instance item. It returns the items of resource definitions too: the
// render consumes them.
func (f *Function) requests(ctx context.Context, cfg *config.Config, items []*item) ([]engine.Request, map[*item]bool, error) {
	var reqs []engine.Request
	sources := map[*item]bool{}
	r := runner.New(cfg, f.Sources).SetBudget(f.budget)
	if cfg.Spec.Framework.Path != "" || cfg.Spec.Framework.Git != nil {
		req, err := r.Request(ctx)
		if err != nil {
			return nil, nil, err
		}
		req.ResourceSource = resourceSource
		// Input items of the framework's resource definitions
		// (<framework>.kudorender.dev) are resources too.
		for _, it := range items {
			if !it.isInstance() && schema.Owns(req.Bundle.Name, map[string]any{"apiVersion": it.header.APIVersion}) {
				m, err := it.decode(f.budget)
				if err != nil {
					return nil, nil, err
				}
				req.Resources = append(req.Resources, m)
				sources[it] = true
			}
		}
		reqs = append(reqs, req)
	}
	if err := f.checkInstances(items, len(reqs)); err != nil {
		return nil, nil, err
	}
	for _, inst := range items {
		if !inst.isInstance() {
			continue
		}
		req, err := f.instanceRequest(ctx, r, inst)
		if err != nil {
			return nil, nil, &itemError{item: inst, err: err}
		}
		req.ResourceSource = resourceSource
		reqs = append(reqs, req)
	}
	return reqs, sources, nil
}

// resourceSource says where a resource came from, as KRM orchestrators
// (kpt, kustomize) record it on input items: the path of
// config.kubernetes.io/path (else internal.config.kubernetes.io/path),
// with the index of config.kubernetes.io/index when it is not 0.
func resourceSource(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	p, _ := ann[string(kioutil.LegacyPathAnnotation)].(string)
	if p == "" {
		p, _ = ann[string(kioutil.PathAnnotation)].(string)
	}
	if p == "" {
		return ""
	}
	if idx, _ := ann[string(kioutil.LegacyIndexAnnotation)].(string); idx != "" && idx != "0" {
		return p + " #" + idx
	}
	return p
}

// render renders the requests, resolves the references of input items
// (and expands Composables) and lays the output out: every input item in
// its order (those it consumes marked local-config, those with
// references resolved) but the objects earlier runs generated for what
// this run generates again, then the rendered objects and the objects of
// Composables. It reports whether the input items already hold the
// rendered objects ([current]).
func (f *Function) render(cfg *config.Config, reqs []engine.Request, in *renderInput, format annotationFormat, legacy map[*object.Object]string) ([]outItem, bool, error) {
	l, err := in.lay(reqs)
	if err != nil {
		return nil, false, err
	}
	lookup := lazyObjects(l.plain, f.budget)
	opts := runner.EngineOptions(cfg, f.Warn)
	opts.Budget = f.budget
	opts.Note = func(d *diag.Diagnostic) {
		f.notes = append(f.notes, d) // a result of the ResourceList, and on stderr
		if f.Warn != nil {
			f.Warn(d.Error())
		}
	}
	opts.Lookup = l.withRefs
	opts.LookupFunc = lookup
	items, err := engine.RenderWith(opts, reqs...)
	if err != nil {
		return nil, false, err
	}
	objs := engine.Objects(items)
	var composed []*object.Object
	var owners []string
	if len(l.withRefs) > 0 {
		resolved, err := f.expand(cfg, l.withRefs, objs, lookup)
		if err != nil {
			return nil, false, err
		}
		for j, o := range resolved {
			if src := l.refSrc[j]; src.isComposable() {
				composed, owners = append(composed, o), append(owners, composableOwner(src.header))
			} else {
				l.out[l.refAt[j]] = outItem{obj: o}
			}
		}
	}
	f.place(items, reqs, format, legacy)
	placeComposed(composed, owners, format, legacy)
	out := l.out
	for _, o := range append(objs, composed...) {
		out = append(out, outItem{obj: o})
	}
	return out, len(composed) == 0 && current(in.items, reqs, objs), nil
}

// renderInput is the input items of a render and what the function
// makes of them.
type renderInput struct {
	items []*item
	// sources are the items the render consumes besides Instances and
	// Composables (resources of the framework's definitions, the
	// functionConfig as an item): kept, marked, never resolved.
	sources map[*item]bool
	// marked holds the consumed items marked local-config.
	marked map[*item]*item
	// budget is the run's: decoded items are charged to it.
	budget *limits.Budget
}

// output is an input item as the output holds it.
func (in *renderInput) output(it *item) outItem {
	if m, ok := in.marked[it]; ok {
		return outItem{in: m}
	}
	return outItem{in: it}
}

// layout is the input items of a render sorted: the output's first part,
// the lookup targets of references, and the items with references to
// resolve (refSrc), each with its place in out (refAt).
type layout struct {
	out      []outItem
	plain    []*item
	withRefs []*object.Object
	refSrc   []*item
	refAt    []int
}

// lay sorts the input items. Objects that a request (or a Composable) of
// this run generated in an earlier run are dropped: the new render
// replaces them, and they are no lookup targets beside their new form.
// Instances stay, marked, and are no lookup targets (as before they were
// kept). A Composable stays, marked, and its template is resolved; another
// item with references is resolved in its place.
func (in *renderInput) lay(reqs []engine.Request) (*layout, error) {
	replaced := map[string]bool{}
	for _, r := range reqs {
		replaced[ownerOf(r)] = true
	}
	for _, it := range in.items {
		if it.isComposable() {
			replaced[composableOwner(it.header)] = true
		}
	}
	l := &layout{out: make([]outItem, 0, len(in.items))}
	for _, it := range in.items {
		owner := it.header.Annotations[AnnOwner]
		switch {
		case it.isInstance():
			l.out = append(l.out, in.output(it))
		case owner != "" && replaced[owner]:
		case it.isComposable() || !in.sources[it] && it.mayHoldReference():
			m, err := it.decode(in.budget)
			if err != nil {
				return nil, &itemError{item: it, err: err}
			}
			l.withRefs, l.refSrc, l.refAt = append(l.withRefs, object.New(m)), append(l.refSrc, it), append(l.refAt, len(l.out))
			l.out = append(l.out, in.output(it))
		default:
			l.plain = append(l.plain, it)
			l.out = append(l.out, in.output(it))
		}
	}
	return l, nil
}

// expand resolves the references of input items and expands Composables,
// against the input items and the rendered objects.
func (f *Function) expand(cfg *config.Config, withRefs, objs []*object.Object, lookup func() ([]*object.Object, error)) ([]*object.Object, error) {
	plain, err := lookup()
	if err != nil {
		return nil, err
	}
	var found []*diag.Diagnostic
	warnings := map[*object.Object][]string{}
	warn := func(obj *object.Object, d *diag.Diagnostic) {
		found = append(found, d)
		c := *d
		c.Resource = nil // the object it is on
		warnings[obj] = append(warnings[obj], c.Error())
	}
	resolved, err := refs.ExpandComposables(withRefs, append(append([]*object.Object{}, plain...), objs...), refs.Options{FailOnSecretCopy: cfg.Spec.FailOnSecretCopy, Warning: warn, Budget: f.budget})
	if err != nil {
		return nil, fmt.Errorf("cannot resolve references in the input items: %w", err)
	}
	// As the render's: on the objects, and once each in the results and
	// on stderr.
	for _, o := range resolved {
		if ls := warnings[o]; len(ls) > 0 {
			object.SetStrings(o.Map, map[string]string{engine.AnnWarnings: engine.WarningsText(ls)}, "metadata", "annotations")
		}
	}
	for _, d := range diag.Collapse(found) {
		f.notes = append(f.notes, d)
		if f.Warn != nil {
			f.Warn(d.Error())
		}
	}
	return resolved, nil
}

// lazyObjects decodes items into objects once, on first call, within
// budget.
func lazyObjects(items []*item, budget *limits.Budget) func() ([]*object.Object, error) {
	var objs []*object.Object
	var err error
	done := false
	return func() ([]*object.Object, error) {
		if !done {
			done = true
			for _, it := range items {
				m, derr := it.decode(budget)
				if derr != nil {
					err = &itemError{item: it, err: derr}
					break
				}
				objs = append(objs, object.New(m))
			}
		}
		return objs, err
	}
}

// current reports whether the input items already hold what a render of
// reqs made (objs, placed): the items each request owns are, by kind,
// namespace and name, exactly its rendered objects, each carrying the
// processed-by marker the render gave it. An object's marker changes only
// with the object, so an item edited since it was rendered still counts.
// Input that may hold references is never current: references are
// resolved every run.
func current(items []*item, reqs []engine.Request, objs []*object.Object) bool {
	for _, it := range items {
		if !it.isInstance() && it.mayHoldReference() {
			return false
		}
	}
	type key struct{ owner, kind, namespace, name string }
	want := map[key]string{}
	owners := map[string]bool{}
	for _, r := range reqs {
		owners[ownerOf(r)] = true
	}
	for _, o := range objs {
		ann := o.MapAt("metadata", "annotations")
		owner, _ := ann[AnnOwner].(string)
		marker, _ := ann[digest.AnnProcessedBy].(string)
		want[key{owner, o.Kind(), o.Namespace(), o.Name()}] = marker
		owners[owner] = true
	}
	n := 0
	for _, it := range items {
		owner, ok := it.header.Annotations[AnnOwner]
		if !ok || !owners[owner] {
			continue
		}
		marker, ok := want[key{owner, it.header.Kind, it.header.Namespace, it.header.Name}]
		if !ok || marker != it.header.Annotations[digest.AnnProcessedBy] {
			return false // another version of an object, or one the render no longer makes
		}
		n++
	}
	return n == len(want)
}

// ownerOf is the owner marker of a request's objects.
func ownerOf(r engine.Request) string {
	return r.Bundle.Name + "/" + r.Instance.Namespace + "/" + r.Instance.Name
}

// mayHoldReference reports whether an item is a Composable or may hold a
// getValueFrom reference (its text, or a key, value or comment of its
// node, names one).
func (it *item) mayHoldReference() bool {
	if it.header.Kind == refs.ComposableKind && strings.HasPrefix(it.header.APIVersion, refs.ComposableGroup+"/") {
		return true
	}
	if it.node != nil {
		return mentions(it.node.YNode(), "getValueFrom", 0)
	}
	return bytes.Contains(it.text, []byte("getValueFrom"))
}

// decode reads the whole item, charging its values and bytes to budget
// (nil: none). An item is at most --max-yaml-values values, so a budget
// is passed by one item at most.
func (it *item) decode(budget *limits.Budget) (map[string]any, error) {
	var m map[string]any
	var err error
	if it.node != nil {
		err = it.node.YNode().Decode(&m)
	} else {
		err = yaml.Unmarshal(it.text, &m)
	}
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("an item is empty")
	}
	if err := budget.ChargeValue(m, fmt.Sprintf("items (line %d of the ResourceList)", it.line)); err != nil {
		return nil, err
	}
	return m, nil
}

// checkInstances refuses, before any is read, more Instance items than the
// render's budget of instances has left after the other requests.
func (f *Function) checkInstances(items []*item, others int) error {
	n := int64(others)
	for _, it := range items {
		if it.isInstance() {
			n++
		}
	}
	if n > f.budget.Left(limits.RenderInstances) {
		return f.budget.Err(limits.RenderInstances, fmt.Sprintf("the ResourceList (%d instances)", n))
	}
	return nil
}

// instanceRequest renders a kudo.dev/v1beta1 Instance object with its
// spec.parameters.
func (f *Function) instanceRequest(ctx context.Context, r *runner.Run, inst *item) (engine.Request, error) {
	m, err := inst.decode(f.budget)
	if err != nil {
		return engine.Request{}, err
	}
	o := object.New(m)
	ov := o.String("spec", "operatorVersion", "name")
	if ov == "" {
		return engine.Request{}, errors.New("spec.operatorVersion.name is empty")
	}
	values := map[string]any{}
	if ps, ok := o.MapAt("spec")["parameters"].(map[string]any); ok {
		maps.Copy(values, ps)
	}
	return r.InstanceRequest(ctx, ov, o.Name(), o.Namespace(), values)
}

// itemError is an error about one input item.
type itemError struct {
	item *item
	err  error
}

func (e *itemError) Error() string {
	h := e.item.header
	return fmt.Sprintf("%s %s/%s: %v", h.Kind, h.Namespace, h.Name, e.err)
}

func (e *itemError) Unwrap() error { return e.err }

// config reads the functionConfig: a FrameworkRender, or a ConfigMap whose
// data holds the same fields flatly.
func (f *Function) config(fc *yaml.RNode) (*config.Config, error) {
	if fc.IsNilOrEmpty() {
		return nil, errors.New("no functionConfig: give a kudorender.dev/v1alpha1 FrameworkRender or a ConfigMap")
	}
	if _, err := strictyaml.CheckAliases(fc.YNode(), limits.Current().YAMLValues); err != nil {
		return nil, fmt.Errorf("cannot read the functionConfig: %w", err)
	}
	name := "functionConfig"
	if p := fc.GetAnnotations()[string(kioutil.PathAnnotation)]; p != "" {
		name = p
	} else if p := fc.GetAnnotations()[string(kioutil.LegacyPathAnnotation)]; p != "" {
		name = p
	}
	var data []byte
	switch {
	case fc.GetKind() == "ConfigMap" && fc.GetApiVersion() == "v1":
		fr, err := fromConfigMap(fc, name)
		if err != nil {
			return nil, err
		}
		if data, err = yaml.Marshal(fr); err != nil {
			return nil, err
		}
	default:
		clean := fc.Copy()
		// Orchestrators add annotations of their own; they are not part of
		// the FrameworkRender schema's concern, so drop the internal ones.
		for _, k := range []kioutil.AnnotationKey{kioutil.PathAnnotation, kioutil.IndexAnnotation, kioutil.IdAnnotation,
			kioutil.LegacyPathAnnotation, kioutil.LegacyIndexAnnotation, kioutil.LegacyIdAnnotation} {
			_ = clean.PipeE(yaml.ClearAnnotation(string(k)))
		}
		s, err := clean.String()
		if err != nil {
			return nil, err
		}
		data = []byte(s)
	}
	return config.ParseKRM(name, f.Dir, data)
}

// parseFunctionConfig parses the functionConfig's text (fast path); nil
// when there is none.
func parseFunctionConfig(text []byte) (*yaml.RNode, error) {
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, nil
	}
	fc, err := yaml.Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("cannot read the functionConfig: %w", err)
	}
	return fc, nil
}

// fromConfigMap maps kpt's `configMap:` form to a FrameworkRender:
// framework, plan (comma-separated), name, namespace, target,
// serverSideApply, publisherImage, param.KEY and pipe.KEY.
func fromConfigMap(cm *yaml.RNode, file string) (map[string]any, error) {
	data := cm.GetDataMap()
	spec := map[string]any{}
	meta := map[string]any{}
	params := map[string]any{}
	pipes := map[string]any{}
	var unknown []string
	for _, k := range slices.Sorted(maps.Keys(data)) {
		v := data[k]
		switch {
		case k == "framework":
			spec["framework"] = map[string]any{"path": v}
		case k == "plan" || k == "plans":
			var plans []any
			for _, p := range strings.Split(v, ",") {
				if p = strings.TrimSpace(p); p != "" {
					plans = append(plans, p)
				}
			}
			spec["plans"] = plans
		case k == "name" || k == "namespace":
			meta[k] = v
		case k == "target" || k == "publisherImage":
			spec[k] = v
		case k == "serverSideApply":
			spec[k] = v == "true"
		case strings.HasPrefix(k, "param."):
			params[strings.TrimPrefix(k, "param.")] = v
		case strings.HasPrefix(k, "pipe."):
			pipes[strings.TrimPrefix(k, "pipe.")] = v
		default:
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		return nil, &config.ConfigError{File: file, Problems: []*config.Problem{{File: file, Field: "data",
			Msg: fmt.Sprintf("unknown keys %s (want framework, plan, name, namespace, target, serverSideApply, publisherImage, param.KEY, pipe.KEY)", strings.Join(unknown, ", "))}}}
	}
	if len(params) > 0 {
		spec["params"] = params
	}
	if len(pipes) > 0 {
		spec["pipes"] = pipes
	}
	if _, ok := meta["name"]; !ok && cm.GetName() != "" {
		meta["name"] = cm.GetName()
	}
	return map[string]any{"apiVersion": config.APIVersion, "kind": config.Kind, "metadata": meta, "spec": spec}, nil
}
