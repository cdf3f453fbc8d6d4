package fn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/diag"
	"github.com/kudo-render/kudo-render/digest"
	"github.com/kudo-render/kudo-render/engine"
	"github.com/kudo-render/kudo-render/enhance"
	"github.com/kudo-render/kudo-render/object"
	"github.com/kudo-render/kudo-render/output"
	"github.com/kudo-render/kudo-render/refs"
	"github.com/kudo-render/kudo-render/schema"
)

// Annotations of generated objects in the KRM function's output.
const (
	// AnnOwner marks the objects a render generated: framework/namespace/instance.
	// A later run replaces objects with the same marker.
	AnnOwner = "kudorender.dev/owner"
	// RenderedDir is where generated objects are written in a package.
	RenderedDir = "rendered"
)

// Function is the KRM function: it reads a ResourceList, renders the
// framework its functionConfig names (and the kudo.dev/v1beta1 Instance
// objects among the items), and returns the items plus the rendered
// objects.
type Function struct {
	// Dir is the working directory the orchestrator gives (the
	// kustomization or package root). Framework paths are relative to it
	// and may not leave it.
	Dir     string
	Sources config.Sources
	// SourcesFor, when set, gives the sources for the functionConfig once
	// it is read (credentials may depend on the hosts it names).
	SourcesFor func(*config.Config) config.Sources
	// Warn receives warnings (stderr).
	Warn func(string)
}

// Run executes the function on a ResourceList read from in, written to out.
// Errors are written as results in the output ResourceList and returned,
// so the caller exits non-zero.
func (f *Function) Run(in io.Reader, out io.Writer) error {
	rw := &kio.ByteReadWriter{Reader: in, Writer: out, KeepReaderAnnotations: true}
	return framework.Execute(f, rw)
}

// Process implements framework.ResourceListProcessor. kyaml's own
// ResourceList.Filter swallows error results, so errors are both recorded
// as results and returned.
func (f *Function) Process(rl *framework.ResourceList) error {
	items, err := f.process(rl)
	if err != nil {
		rl.Results = append(rl.Results, toResults(err)...)
		return framework.Results(rl.Results)
	}
	rl.Items = items
	return nil
}

func (f *Function) process(rl *framework.ResourceList) ([]*yaml.RNode, error) {
	if rl.FunctionConfig == nil || rl.FunctionConfig.IsNilOrEmpty() {
		return nil, errors.New("no functionConfig: give a kudorender.dev/v1alpha1 FrameworkRender or a ConfigMap")
	}
	cfg, err := f.config(rl.FunctionConfig)
	if err != nil {
		return nil, err
	}
	if f.SourcesFor != nil {
		f.Sources = f.SourcesFor(cfg)
	}
	ctx := context.Background()
	var reqs []engine.Request
	var kept []*yaml.RNode
	var instances []*yaml.RNode
	for _, it := range rl.Items {
		if it.GetApiVersion() == "kudo.dev/v1beta1" && it.GetKind() == "Instance" {
			instances = append(instances, it)
			continue
		}
		kept = append(kept, it)
	}
	if cfg.Spec.Framework.Path != "" || cfg.Spec.Framework.Git != nil {
		req, err := cfg.Request(ctx, f.Sources)
		if err != nil {
			return nil, err
		}
		// Input items of the framework's resource definitions
		// (<framework>.kudorender.dev) are resources too; they stay in
		// the output as they are.
		for _, it := range kept {
			if m, err := it.Map(); err == nil && schema.Owns(req.Bundle.Name, m) {
				req.Resources = append(req.Resources, m)
			}
		}
		reqs = append(reqs, req)
	}
	for _, inst := range instances {
		req, err := f.instanceRequest(ctx, cfg, inst)
		if err != nil {
			return nil, &itemError{item: inst, err: err}
		}
		reqs = append(reqs, req)
	}
	if len(reqs) == 0 {
		// Only Instance objects are rendered and there are none (left):
		// an earlier run already replaced them. Nothing changes.
		return rl.Items, nil
	}
	// Objects that already carry this render's processed-marker are up
	// to date: leave everything untouched (no churn, no update loop).
	if upToDate(kept, reqs) {
		return rl.Items, nil
	}
	// Input items are lookup targets of references; items that hold
	// references themselves, and Composable objects, are resolved too.
	var lookup, withRefs []*object.Object
	var plain []*yaml.RNode
	for _, it := range kept {
		m, err := it.Map()
		if err != nil {
			return nil, &itemError{item: it, err: err}
		}
		o := object.New(m)
		if isComposable(o) || hasReference(m) {
			withRefs = append(withRefs, o)
			continue
		}
		lookup = append(lookup, o)
		plain = append(plain, it)
	}
	opts := cfg.EngineOptions(f.Warn)
	opts.Lookup = append(lookup, withRefs...)
	items, err := engine.RenderWith(opts, reqs...)
	if err != nil {
		return nil, err
	}
	objs := make([]*object.Object, len(items))
	for i, it := range items {
		objs[i] = it.Obj
	}
	var resolvedItems []*yaml.RNode
	if len(withRefs) > 0 {
		resolved, err := refs.ExpandComposables(withRefs, append(lookup, objs...), refs.Options{FailOnSecretCopy: cfg.Spec.FailOnSecretCopy, Warn: f.Warn})
		if err != nil {
			return nil, fmt.Errorf("cannot resolve references in the input items: %w", err)
		}
		for _, o := range resolved {
			n, err := toNode(o)
			if err != nil {
				return nil, err
			}
			resolvedItems = append(resolvedItems, n)
		}
	}
	kept = append(plain, resolvedItems...)
	owners := map[string]bool{}
	for _, r := range reqs {
		owners[ownerOf(r)] = true
	}
	// Replace the output of earlier runs instead of duplicating it.
	var out []*yaml.RNode
	for _, it := range kept {
		if owners[it.GetAnnotations()[AnnOwner]] {
			continue
		}
		out = append(out, it)
	}
	generated, err := f.nodes(objs, reqs)
	if err != nil {
		return nil, err
	}
	return append(out, generated...), nil
}

// upToDate reports whether, for every request, the input holds objects
// it owns and all of them carry the request's current processed-marker.
func upToDate(items []*yaml.RNode, reqs []engine.Request) bool {
	for _, it := range items {
		if it.GetKind() == refs.ComposableKind {
			return false
		}
		if m, err := it.Map(); err != nil || hasReference(m) {
			return false // references in the input are resolved every run
		}
	}
	for _, r := range reqs {
		marker, err := engine.Marker(r)
		if err != nil {
			return false
		}
		owner, n := ownerOf(r), 0
		for _, it := range items {
			ann := it.GetAnnotations()
			if ann[AnnOwner] != owner {
				continue
			}
			if ann[digest.AnnProcessedBy] != marker {
				return false
			}
			n++
		}
		if n == 0 {
			return false
		}
	}
	return true
}

// ownerOf is the owner marker of a request's objects.
func ownerOf(r engine.Request) string {
	return r.Bundle.Name + "/" + r.Instance.Namespace + "/" + r.Instance.Name
}

// nodes turns rendered objects into RNodes with the owner marker and a
// path below rendered/<instance>/ (rendered/common/<operator>/ for common/
// objects), named by output.Names.
func (f *Function) nodes(objs []*object.Object, reqs []engine.Request) ([]*yaml.RNode, error) {
	byInstance := map[string]engine.Request{}
	for _, r := range reqs {
		byInstance[r.Bundle.Name+"\x00"+r.Instance.Name] = r
	}
	dirs := make([]string, len(objs))
	owners := make([]string, len(objs))
	byDir := map[string][]int{}
	for i, o := range objs {
		dirs[i], owners[i] = placeOf(o, reqs, byInstance)
		byDir[dirs[i]] = append(byDir[dirs[i]], i)
	}
	files := make([]string, len(objs))
	for dir, idx := range byDir {
		group := make([]*object.Object, len(idx))
		for j, i := range idx {
			group[j] = objs[i]
		}
		for j, name := range output.Names(group) {
			files[idx[j]] = path.Join(dir, name)
		}
	}
	out := make([]*yaml.RNode, 0, len(objs))
	for i, o := range objs {
		object.SetStrings(o.Map, map[string]string{
			AnnOwner:                        owners[i],
			string(kioutil.PathAnnotation):  files[i],
			string(kioutil.IndexAnnotation): "0",
		}, "metadata", "annotations")
		n, err := toNode(o)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}

// placeOf returns the folder and the owner marker of a rendered object.
// common/ objects belong to the framework: owned by the first request of
// that framework.
func placeOf(o *object.Object, reqs []engine.Request, byInstance map[string]engine.Request) (string, string) {
	op := o.String("metadata", "labels", enhance.LabelOperator)
	inst := o.String("metadata", "labels", enhance.LabelInstance)
	if r, ok := byInstance[op+"\x00"+inst]; ok {
		return path.Join(RenderedDir, inst), ownerOf(r)
	}
	for _, r := range reqs {
		if r.Bundle.Name == op {
			return path.Join(RenderedDir, "common", op), ownerOf(r)
		}
	}
	return path.Join(RenderedDir, "common", op), ""
}

func toNode(o *object.Object) (*yaml.RNode, error) {
	data, err := o.Marshal()
	if err != nil {
		return nil, err
	}
	return yaml.Parse(string(data))
}

func isComposable(o *object.Object) bool {
	return o.Kind() == refs.ComposableKind && o.Group() == refs.ComposableGroup
}

// hasReference reports whether a getValueFrom key appears anywhere in v.
func hasReference(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["getValueFrom"]; ok {
			return true
		}
		for _, x := range t {
			if hasReference(x) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if hasReference(x) {
				return true
			}
		}
	}
	return false
}

// config reads the functionConfig: a FrameworkRender, or a ConfigMap whose
// data holds the same fields flatly.
func (f *Function) config(fc *yaml.RNode) (*config.Config, error) {
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
		return nil, &config.ConfigError{File: file, Problems: []*diag.Diagnostic{{File: file, Field: "data",
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

// instanceRequest renders a kudo.dev/v1beta1 Instance object with its
// spec.parameters.
func (f *Function) instanceRequest(ctx context.Context, cfg *config.Config, inst *yaml.RNode) (engine.Request, error) {
	m, err := inst.Map()
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
	return cfg.InstanceRequest(ctx, f.Sources, ov, o.Name(), o.Namespace(), values)
}

// itemError is an error about one input item.
type itemError struct {
	item *yaml.RNode
	err  error
}

func (e *itemError) Error() string {
	return fmt.Sprintf("%s %s/%s: %v", e.item.GetKind(), e.item.GetNamespace(), e.item.GetName(), e.err)
}

func (e *itemError) Unwrap() error { return e.err }

// toResults turns an error into KRM results, one per diagnostic, with
// the file, field and resource where they are known.
func toResults(err error) []*framework.Result {
	var ie *itemError
	item := errors.As(err, &ie)
	var out []*framework.Result
	for _, d := range diag.From(err) {
		r := Result(d)
		if item && r.ResourceRef == nil {
			r.ResourceRef = &yaml.ResourceIdentifier{
				TypeMeta: yaml.TypeMeta{APIVersion: ie.item.GetApiVersion(), Kind: ie.item.GetKind()},
				NameMeta: yaml.NameMeta{Name: ie.item.GetName(), Namespace: ie.item.GetNamespace()},
			}
			if p := ie.item.GetAnnotations()[string(kioutil.PathAnnotation)]; p != "" && r.File == nil {
				r.File = &framework.File{Path: p}
			}
		}
		out = append(out, r)
	}
	return out
}

// Result maps a diagnostic onto kyaml's framework.Result: message,
// severity, resourceRef, field.path and file.path (the line, which
// Result has no field for, goes into the message and the "line" tag).
func Result(d *diag.Diagnostic) *framework.Result {
	r := &framework.Result{Message: d.Msg, Severity: framework.Error}
	switch d.Severity {
	case diag.SeverityWarning:
		r.Severity = framework.Warning
	case diag.SeverityInfo:
		r.Severity = framework.Info
	}
	if d.File == "" && d.Field == "" && d.Resource == nil {
		r.Message = d.Error()
	}
	if d.File != "" {
		r.File = &framework.File{Path: d.File}
		if d.Line > 0 {
			r.Message = fmt.Sprintf("line %d: %s", d.Line, d.Msg)
			r.Tags = map[string]string{"line": fmt.Sprint(d.Line)}
		}
	}
	if d.Field != "" {
		r.Field = &framework.Field{Path: d.Field}
	}
	if res := d.Resource; res != nil {
		r.ResourceRef = &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: res.APIVersion, Kind: res.Kind},
			NameMeta: yaml.NameMeta{Name: res.Name, Namespace: res.Namespace},
		}
	}
	return r
}
