package migrate

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/visible"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Targets of Import.
const (
	TargetArgoCD = "argocd"
	TargetFlux   = "flux"
)

// ConfigFile is the FrameworkRender written per instance: the file the
// Argo CD plugin discovers.
const ConfigFile = "kudo-render.yaml"

// Options say where Import finds packages and what it writes.
type Options struct {
	// OutDir is the folder the files will be written to (the root of the
	// GitOps repository); relative paths to Operators are computed from it.
	OutDir string
	// Operators is a folder of packages, found by the name and version
	// their operator.yaml declares wherever they are below it (a checkout
	// of kudobuilder/operators: repository/<name>/operator/); "" rebuilds
	// every package from its OperatorVersion into
	// operators/<name>/<version>/.
	Operators string
	// Target is TargetArgoCD (default) or TargetFlux.
	Target string
	// Namespace, when set, imports only the instances of this namespace.
	Namespace string
	// RepoURL and Revision are the git repository of OutDir, for Argo CD
	// Applications.
	RepoURL, Revision string
}

// Result is what Import lays out: files (slash paths below OutDir ->
// content) and notes for stderr.
type Result struct {
	Files map[string][]byte
	Notes []string
	// Apps counts the instances written; Children those rendered by a
	// parent; Rebuilt the packages rebuilt from OperatorVersions.
	Apps, Children, Rebuilt int
}

// importer is the state of one Import.
type importer struct {
	exp  *Export
	opts Options
	res  *Result
	// pkgs memoises packages by OperatorVersion key.
	pkgs map[string]*pkg
	// rebuilt lists the folders of rebuilt packages.
	rebuilt map[string]bool
	// appNames maps the names of written applications to their instance.
	appNames map[string]string
	// index is the packages of Options.Operators, once searched.
	index *index
}

// pkg is the package of an OperatorVersion: its folder (a slash path
// below OutDir, or an absolute path in Operators) and its loaded bundle.
type pkg struct {
	dir     string
	rebuilt bool
	b       *bundle.Bundle
}

// Import lays out a GitOps repository for the instances of exp. Every
// problem is reported, each naming the object and the field; on error no
// file is returned.
func Import(exp *Export, opts Options) (*Result, error) {
	if opts.Target == "" {
		opts.Target = TargetArgoCD
	}
	if opts.Target != TargetArgoCD && opts.Target != TargetFlux {
		return nil, fmt.Errorf("--target %q: want argocd or flux", opts.Target)
	}
	im := &importer{exp: exp, opts: opts, res: &Result{Files: map[string][]byte{}}, pkgs: map[string]*pkg{}, rebuilt: map[string]bool{}, appNames: map[string]string{}}
	var errs []error
	children := map[string][]*Instance{}
	var tops []*Instance
	for _, k := range slices.Sorted(maps.Keys(exp.Instances)) {
		in := exp.Instances[k]
		if opts.Namespace != "" && in.Namespace != opts.Namespace {
			continue
		}
		if _, err := im.packageOf(in); err != nil {
			errs = append(errs, err)
			continue
		}
		if in.Parent != "" && exp.Instances[Key(in.Namespace, in.Parent)] != nil {
			children[Key(in.Namespace, in.Parent)] = append(children[Key(in.Namespace, in.Parent)], in)
			continue
		}
		if in.Parent != "" {
			im.res.Notes = append(im.res.Notes, fmt.Sprintf("%s: owned by the %s, which is not in the export: imported as an application of its own", where(in), named(kindInstance, in.Namespace, in.Parent)))
		}
		tops = append(tops, in)
	}
	for _, in := range tops {
		if err := im.writeInstance(in, children[Key(in.Namespace, in.Name)]); err != nil {
			errs = append(errs, err)
		}
	}
	if err := joinSorted(errs); err != nil {
		return nil, err
	}
	if err := checkTree(im.res.Files); err != nil {
		return nil, err
	}
	if len(tops) == 0 {
		return nil, errors.New("no kudo.dev/v1beta1 Instance to import" + im.nsNote())
	}
	return im.res, nil
}

func (im *importer) nsNote() string {
	if im.opts.Namespace == "" {
		return ""
	}
	return " in namespace " + im.opts.Namespace
}

// where names an instance in messages and comments.
func where(in *Instance) string { return named(kindInstance, in.Namespace, in.Name) }

// whereOV names an OperatorVersion in messages and comments.
func whereOV(ov *OperatorVersion) string { return named(kindOV, ov.Namespace, ov.Name) }

// packageOf finds or rebuilds the package of an instance.
func (im *importer) packageOf(in *Instance) (*pkg, error) {
	if err := object.CheckLabel(in.Namespace); err != nil {
		return nil, fmt.Errorf("%s: metadata.namespace: %v", where(in), err)
	}
	if err := object.CheckInstanceName(in.Name); err != nil {
		return nil, fmt.Errorf("%s: metadata.name: %v", where(in), err)
	}
	if err := checkObjectName(in.OperatorVersion); err != nil {
		return nil, fmt.Errorf("%s: spec.operatorVersion.name: %v", where(in), err)
	}
	if in.Parent != "" {
		if err := checkObjectName(in.Parent); err != nil {
			return nil, fmt.Errorf("%s: metadata.ownerReferences: the owning Instance's name: %v", where(in), err)
		}
	}
	key := Key(in.Namespace, in.OperatorVersion)
	if p := im.pkgs[key]; p != nil {
		return p, nil
	}
	ov := im.exp.Versions[key]
	if ov == nil {
		return nil, fmt.Errorf("%s: spec.operatorVersion.name: the OperatorVersion %s is not in the exported files (export it with `kubectl get operatorversions -n %s -o yaml`)", where(in), key, in.Namespace)
	}
	if err := checkNames(ov); err != nil {
		return nil, err
	}
	var p *pkg
	var err error
	if im.opts.Operators != "" {
		p, err = im.findPackage(ov)
	} else {
		p, err = im.rebuildPackage(ov)
	}
	if err != nil {
		return nil, err
	}
	im.pkgs[key] = p
	return p, nil
}

// checkNames checks the names of ov that Import writes or compares
// (names.go): its operator, version, templates and parameters.
func checkNames(ov *OperatorVersion) error {
	var errs []error
	if err := checkObjectName(ov.Operator); err != nil {
		errs = append(errs, fmt.Errorf("%s: spec.operator.name: %v", whereOV(ov), err))
	}
	if err := checkVersion(ov.Version); err != nil {
		errs = append(errs, fmt.Errorf("%s: spec.version: %v", whereOV(ov), err))
	}
	for _, name := range slices.Sorted(maps.Keys(ov.Templates)) {
		if err := checkTemplateName(name); err != nil {
			errs = append(errs, fmt.Errorf("%s: spec.templates[%s]: %v", whereOV(ov), quote(name), err))
		}
	}
	for i, p := range ov.Params {
		if err := checkKey(p.Name); err != nil {
			errs = append(errs, fmt.Errorf("%s: spec.parameters[%d].name: %v", whereOV(ov), i, err))
		}
	}
	return joinSorted(errs)
}

// findPackage looks the package of ov up in Options.Operators, by the
// name and version packages declare, wherever they are below it (the
// folder is searched once per import).
func (im *importer) findPackage(ov *OperatorVersion) (*pkg, error) {
	if im.index == nil {
		ix, err := indexPackages(im.opts.Operators)
		if err != nil {
			return nil, err
		}
		im.index = ix
	}
	dir, ok, err := im.index.find(ov.Operator, ov.Version)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", whereOV(ov), err)
	}
	if !ok {
		return nil, fmt.Errorf("%s: %s; without --operators it is rebuilt from the OperatorVersion",
			whereOV(ov), im.index.missing(ov.Operator, ov.Version))
	}
	b, err := bundle.LoadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: the package in %s: %w", whereOV(ov), dir, err)
	}
	if b.Name != ov.Operator || b.Version != ov.Version {
		return nil, fmt.Errorf("%s: the package in %s loads as %s %s, not %s %s", whereOV(ov), dir, quote(b.Name), quote(b.Version), quote(ov.Operator), quote(ov.Version))
	}
	im.noteTemplates(ov, b, dir)
	return &pkg{dir: dir, b: b}, nil
}

// rebuildPackage rebuilds the package of ov into operators/<name>/<version>/.
func (im *importer) rebuildPackage(ov *OperatorVersion) (*pkg, error) {
	where := whereOV(ov)
	files, notes, err := rebuild(ov, im.exp.Operators[Key(ov.Namespace, ov.Operator)])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	b, err := bundle.Load(mapFS(files), ov.Operator)
	if err != nil {
		return nil, fmt.Errorf("%s: the package it holds does not load: %w", where, err)
	}
	dir := path.Join("operators", ov.Operator, ov.Version)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := path.Join(dir, name)
		if old, ok := im.res.Files[p]; ok && string(old) != string(files[name]) {
			return nil, fmt.Errorf("%s: holds another package than an OperatorVersion of another namespace with the same name and version (%s differs)", where, p)
		}
		im.res.Files[p] = files[name]
	}
	if !im.rebuilt[dir] {
		im.rebuilt[dir] = true
		im.res.Rebuilt++
		im.res.Notes = append(im.res.Notes, notes...)
	}
	return &pkg{dir: dir, rebuilt: true, b: b}, nil
}

// noteTemplates notes the templates of a package found in --operators
// that differ from those the OperatorVersion holds: the cluster runs what
// the OperatorVersion says, and the render will differ from it.
func (im *importer) noteTemplates(ov *OperatorVersion, b *bundle.Bundle, dir string) {
	var diff []string
	for _, name := range slices.Sorted(maps.Keys(ov.Templates)) {
		if got, ok := b.Templates[name]; !ok || string(got) != ov.Templates[name] {
			diff = append(diff, name)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.Templates)) {
		if _, ok := ov.Templates[name]; !ok {
			diff = append(diff, name)
		}
	}
	if len(diff) > 0 {
		im.res.Notes = append(im.res.Notes, fmt.Sprintf("%s: the package %s holds other templates than the cluster's (%s): the render will differ from what KUDO applied",
			whereOV(ov), visible.Escape(dir), visible.Escape(strings.Join(diff, ", "))))
	}
}

// checkTree refuses a path that is both a file and a folder of another
// path (a namespace named "operators" with an instance named after a
// rebuilt package).
func checkTree(files map[string][]byte) error {
	for _, p := range slices.Sorted(maps.Keys(files)) {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if _, ok := files[d]; ok {
				return fmt.Errorf("%s would be both a file and the folder of %s: import the namespace apart (--namespace) into another --output-dir, or use --operators", d, p)
			}
		}
	}
	return nil
}
