package migrate

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/plan"
	"github.com/kudo-render/kudo-render/internal/schema"
	"github.com/kudo-render/kudo-render/internal/suggest"
	"github.com/kudo-render/kudo-render/internal/visible"
)

// header is how every object Import writes begins.
type header struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name      string `yaml:"name"`
		Namespace string `yaml:"namespace"`
	} `yaml:"metadata"`
}

// frameworkRender is the kudorender.dev/v1alpha1 FrameworkRender written
// per instance (the fields of config.FrameworkRender that Import sets).
type frameworkRender struct {
	header `yaml:",inline"`
	Spec   struct {
		Framework struct {
			Path string `yaml:"path"`
		} `yaml:"framework"`
		Params map[string]*yaml.Node `yaml:"params,omitempty"`
		Pipes  map[string]string     `yaml:"pipes,omitempty"`
		// ServerSideApply is set for Argo CD: the first sync of an adopted
		// install must be the server-side apply adopt check dry-runs.
		ServerSideApply *bool        `yaml:"serverSideApply,omitempty"`
		Target          string       `yaml:"target,omitempty"`
		Repositories    []repository `yaml:"repositories,omitempty"`
	} `yaml:"spec"`
}

type repository struct {
	Name string `yaml:"name"`
	Path string `yaml:"path"`
}

// mapFS serves files (slash paths -> content) as a file system.
func mapFS(files map[string][]byte) fstest.MapFS {
	fsys := fstest.MapFS{}
	for p, data := range files {
		fsys[p] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return fsys
}

// writeInstance adds the FrameworkRender and the application of a
// top-level instance; children are the instances its KudoOperator tasks
// made.
func (im *importer) writeInstance(in *Instance, children []*Instance) error {
	p := im.pkgs[Key(in.Namespace, in.OperatorVersion)]
	dir := path.Join(in.Namespace, in.Name)
	var fr frameworkRender
	fr.APIVersion, fr.Kind = "kudorender.dev/v1alpha1", "FrameworkRender"
	fr.Metadata.Name, fr.Metadata.Namespace = in.Name, in.Namespace
	rel, err := im.relPath(dir, p)
	if err != nil {
		return fmt.Errorf("%s: %w", where(in), err)
	}
	fr.Spec.Framework.Path = rel
	if fr.Spec.Params, err = changedParams(in, p.b); err != nil {
		return err
	}
	fr.Spec.Pipes = pipeArtifacts(in, p.b)
	if im.opts.Target == TargetFlux {
		fr.Spec.Target = TargetFlux
	} else {
		ssa := true
		fr.Spec.ServerSideApply = &ssa
	}
	if len(children) > 0 || hasDependencies(p.b) {
		if err := im.reachable(in, p, children); err != nil {
			return err
		}
		fr.Spec.Repositories = im.repositories(dir)
	}
	data, err := marshal(fr)
	if err != nil {
		return err
	}
	im.res.Files[path.Join(dir, ConfigFile)] = append([]byte(im.header(in, children)), data...)
	app, name, err := im.application(in)
	if err != nil {
		return err
	}
	im.res.Files[path.Join(dir, name)] = app
	im.res.Apps++
	return nil
}

// pipeArtifacts maps the keys of the Pipe tasks of the plans KUDO ran to
// the Secrets and ConfigMaps KUDO made of their files (named as KUDO named
// them), so that the render uses them and runs no pipe Job, which would
// make new ones (new certificates, new keys). The deploy plan comes first,
// then the others by name; a key keeps the first plan's artifact.
func pipeArtifacts(in *Instance, b *bundle.Bundle) map[string]string {
	tasks := map[string]*bundle.Task{}
	for _, t := range b.Tasks {
		tasks[t.Name] = t
	}
	plans := slices.Clone(b.Plans)
	slices.SortStableFunc(plans, func(x, y *bundle.Plan) int {
		return cmp.Compare(boolInt(x.Name != "deploy"), boolInt(y.Name != "deploy"))
	})
	out := map[string]string{}
	for _, pl := range plans {
		if !slices.Contains(in.PlansRun, pl.Name) {
			continue
		}
		for _, ph := range pl.Phases {
			for _, st := range ph.Steps {
				for _, tn := range st.Tasks {
					t := tasks[tn]
					if t == nil || t.Kind != bundle.KindPipe {
						continue
					}
					for _, pf := range t.Pipe {
						if _, ok := out[pf.Key]; !ok {
							out[pf.Key] = plan.ArtifactName(in.Name, pl.Name, ph.Name, st.Name, t.Name, pf.Key)
						}
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// header is the comment at the top of a written FrameworkRender. The names
// in it were checked (names.go) and are escaped all the same: no character
// of the export can end a comment line.
func (im *importer) header(in *Instance, children []*Instance) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Imported from the KUDO %s (OperatorVersion %s) by kudo-render import.\n", where(in), visible.Escape(in.OperatorVersion))
	if len(children) > 0 {
		b.WriteString("# Rendered by this instance's KudoOperator tasks, not applications of their own:\n")
	}
	for _, c := range children {
		fmt.Fprintf(&b, "#   %s (OperatorVersion %s)\n", where(c), visible.Escape(c.OperatorVersion))
		im.res.Children++
		im.res.Notes = append(im.res.Notes, fmt.Sprintf("%s: a dependency of %s (KudoOperator task), rendered by it: no application of its own", where(c), where(in)))
	}
	return b.String()
}

// hasDependencies reports whether a package has KudoOperator tasks.
func hasDependencies(b *bundle.Bundle) bool {
	for _, t := range b.Tasks {
		if t.Kind == bundle.KindKudoOperator {
			return true
		}
	}
	return false
}

// repositories are where the dependencies of an instance's package are
// looked up: the rebuilt packages, and --operators with the folders below
// it that hold its packages in a layout the render's repositories read
// (kudobuilder/operators' repository/, say).
func (im *importer) repositories(dir string) []repository {
	var out []repository
	if len(im.rebuilt) > 0 {
		out = append(out, repository{Name: "imported", Path: strings.Repeat("../", strings.Count(dir, "/")+1) + "operators"})
	}
	if im.opts.Operators == "" {
		return out
	}
	roots := []string{im.opts.Operators}
	for _, k := range slices.Sorted(maps.Keys(im.pkgs)) {
		if p := im.pkgs[k]; !p.rebuilt {
			if r := repositoryRoot(p); r != "" && !slices.Contains(roots, r) {
				roots = append(roots, r)
			}
		}
	}
	for i, r := range roots {
		rel, err := filepath.Rel(filepath.Join(im.opts.OutDir, dir), r)
		if err != nil {
			continue
		}
		name := "operators"
		if i > 0 {
			name += "-" + strconv.Itoa(i+1)
		}
		out = append(out, repository{Name: name, Path: filepath.ToSlash(rel)})
	}
	return out
}

// reachable checks that the render can find, through spec.repositories,
// the package of every child its package's KudoOperator tasks name by
// name (not by a path): a package found in --operators must lie in one of
// the layouts repositories read.
func (im *importer) reachable(in *Instance, p *pkg, children []*Instance) error {
	for _, c := range children {
		cp := im.pkgs[Key(c.Namespace, c.OperatorVersion)]
		if cp == nil || cp.rebuilt || repositoryRoot(cp) != "" || !namesDependency(p.b, cp.b.Name) {
			continue
		}
		return fmt.Errorf("%s: its KudoOperator task installs %s %s by name, which the render looks up in spec.repositories as <name>/<version>/, <name>/, <name>/operator/ or <name>/<app version>/operator/, but --operators has it in %s: move it into one of those folders",
			where(in), cp.b.Name, cp.b.Version, cp.dir)
	}
	return nil
}

// namesDependency reports whether a KudoOperator task of b names the
// package name as a name, not a path.
func namesDependency(b *bundle.Bundle, name string) bool {
	for _, t := range b.Tasks {
		if t.Kind == bundle.KindKudoOperator && t.Operator != nil && t.Operator.Package == name {
			return true
		}
	}
	return false
}

// repositoryRoot is the folder that a render's spec.repositories entry
// must name to find p by its name and version (package location's
// layouts): <root>/<name>/<version>/, <root>/<name>/, and
// kudobuilder/operators' <root>/<name>/operator/ and
// <root>/<name>/<app version>/operator/; "" when p is in none of them.
func repositoryRoot(p *pkg) string {
	up := func(d string, n int) string {
		for range n {
			d = filepath.Dir(d)
		}
		return d
	}
	base := func(n int) string { return filepath.Base(up(p.dir, n)) }
	switch {
	case base(0) == p.b.Version && base(1) == p.b.Name:
		return up(p.dir, 2)
	case base(0) == p.b.Name:
		return up(p.dir, 1)
	case base(0) == "operator" && base(1) == p.b.Name:
		return up(p.dir, 2)
	case base(0) == "operator" && base(2) == p.b.Name:
		return up(p.dir, 3)
	}
	return ""
}

// relPath is the path of a package relative to the folder dir (below
// OutDir) of a FrameworkRender.
func (im *importer) relPath(dir string, p *pkg) (string, error) {
	if p.rebuilt {
		return strings.Repeat("../", strings.Count(dir, "/")+1) + p.dir, nil
	}
	rel, err := filepath.Rel(filepath.Join(im.opts.OutDir, dir), p.dir)
	if err != nil {
		return "", fmt.Errorf("cannot reach the package %s from %s: %w", p.dir, dir, err)
	}
	return filepath.ToSlash(rel), nil
}

// changedParams returns the parameters of in that differ from the
// package's defaults, typed as the package says. The values (and the
// defaults they leave in use) are first checked as a render checks them
// (schema.ResolveParams: types, enums, params.schema.json): a value render
// would refuse is refused here, naming the instance and the parameter,
// instead of being written into a config that cannot render.
func changedParams(in *Instance, b *bundle.Bundle) (map[string]*yaml.Node, error) {
	defs := map[string]*bundle.Param{}
	for _, p := range b.Params {
		defs[p.Name] = p
	}
	values := map[string]any{}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(in.Params)) {
		if err := checkKey(name); err != nil {
			errs = append(errs, fmt.Errorf("%s: spec.parameters: %v", where(in), err))
			continue
		}
		if defs[name] == nil {
			msg := fmt.Sprintf("%s: spec.parameters.%s: is not defined by the package %s %s", where(in), name, b.Name, b.Version)
			if s, ok := suggest.Closest(name, slices.Sorted(maps.Keys(defs))); ok {
				msg += "; did you mean " + s + "?"
			}
			errs = append(errs, errors.New(msg))
			continue
		}
		values[name] = in.Params[name]
	}
	if len(errs) > 0 {
		return nil, joinSorted(errs)
	}
	if err := resolvable(in, b, values); err != nil {
		return nil, err
	}
	out := map[string]*yaml.Node{}
	for _, name := range slices.Sorted(maps.Keys(values)) {
		n, changed, err := typedValue(defs[name], in.Params[name])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: spec.parameters.%s: %v", where(in), name, err))
			continue
		}
		if changed {
			out[name] = n
		}
	}
	if len(out) == 0 {
		out = nil
	}
	return out, joinSorted(errs)
}

// resolvable checks the values of in as a render of the package checks
// them; each violation names the instance and the parameter, or the
// package's default.
func resolvable(in *Instance, b *bundle.Bundle, values map[string]any) error {
	_, err := schema.ResolveParams(b, values)
	var pe *params.Error
	if !errors.As(err, &pe) {
		if err != nil {
			return fmt.Errorf("%s: the parameters of the package %s %s: %w", where(in), b.Name, b.Version, err)
		}
		return nil
	}
	var errs []error
	for _, v := range pe.Violations {
		if v.Default {
			errs = append(errs, fmt.Errorf("%s: the package %s %s: %s (a render of this instance would refuse it)", where(in), b.Name, b.Version, v.Diagnostic()))
			continue
		}
		errs = append(errs, fmt.Errorf("%s: spec.parameters.%s: %s (a render would refuse it)", where(in), v.Param, v.Msg))
	}
	return joinSorted(errs)
}

// typedValue converts the text of an Instance parameter to the YAML node
// the package's type asks for, and tells whether it differs from the
// default.
func typedValue(def *bundle.Param, s string) (*yaml.Node, bool, error) {
	switch def.Type {
	case bundle.TypeArray, bundle.TypeMap:
		v, err := parseValue(s)
		if err != nil {
			return nil, false, fmt.Errorf("a %s parameter: %v", def.Type, err)
		}
		var n yaml.Node
		if err := n.Encode(v); err != nil {
			return nil, false, err
		}
		return &n, !sameJSON(v, def.Default), nil
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if tag := scalarTag(def.Type, s); tag != "" {
		n.Tag = tag
	}
	d, ok := def.Default.(string)
	return n, !def.HasDefault() || !ok || d != s, nil
}

// scalarTag is the YAML tag that writes s plainly as a value of type t,
// or "" when s is not in the canonical form of t (it stays text).
func scalarTag(t bundle.ParamType, s string) string {
	switch t {
	case bundle.TypeInteger:
		if i, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(i, 10) == s {
			return "!!int"
		}
	case bundle.TypeBoolean:
		if s == "true" || s == "false" {
			return "!!bool"
		}
	case bundle.TypeNumber:
		if f, err := strconv.ParseFloat(s, 64); err == nil && strconv.FormatFloat(f, 'f', -1, 64) == s {
			if strings.Contains(s, ".") {
				return "!!float"
			}
			return "!!int"
		}
	}
	return ""
}

// sameJSON compares two decoded YAML values by their JSON.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}
