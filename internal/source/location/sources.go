package location

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Repository is a named place where frameworks are looked up by name and
// version, laid out as <framework>/<version>/, as <framework>/ whose
// framework.yaml (or operator.yaml) has the version, or as
// kudobuilder/operators lays out its repository/ folder:
// <framework>/operator/ or <framework>/<app version>/operator/.
type Repository struct {
	Name     string
	Location Location
}

// Sources turns what configs and bundles name into locations.
type Sources struct {
	// Kinds open remote sources by kind; a kind that is not there makes
	// its sources an error.
	Kinds Kinds
	// Pin returns the pin of a source (its own, or one a lock recorded),
	// "" for none; nil pins nothing beyond the source's own.
	Pin func(bundle.Source) string
	// Confine, when set, is a folder every local location must stay
	// inside (symbolic links resolved): the KRM package, the Argo CD
	// application's repository.
	Confine string
	// Repositories resolve `extends: {kudo: ...}` and KudoOperator
	// packages named without a path.
	Repositories []Repository
}

// Local is the folder dir, confined.
func (s *Sources) Local(dir string) Location { return Local{Dir: dir, Confine: s.Confine} }

// Remote is the folder of the remote source r names.
func (s *Sources) Remote(r bundle.Source) Location { return Remote{Source: r, src: s} }

// Extends finds the bundle that ext names: a path relative to from, a
// remote source, or a framework looked up by name and version in
// Repositories.
func (s *Sources) Extends(ctx context.Context, from Location, ext *bundle.Extends) (Location, error) {
	remotes := ext.Sources()
	set := len(remotes)
	for _, b := range []bool{ext.Kudo != nil, ext.Path != ""} {
		if b {
			set++
		}
	}
	if set != 1 {
		return nil, errors.New("extends needs exactly one of " + bundle.OneOf("kudo", "path"))
	}
	switch {
	case len(remotes) == 1:
		if err := remotes[0].Check(); err != nil {
			return nil, fmt.Errorf("extends.%s.%w", remotes[0].SourceKind(), err)
		}
		return s.Remote(remotes[0]), nil
	case ext.Path != "":
		return from.Join(ext.Path)
	default:
		return s.Find(ctx, ext.Kudo.Framework, ext.Kudo.Version)
	}
}

// Find looks a framework up by name and version in Repositories.
func (s *Sources) Find(ctx context.Context, framework, version string) (Location, error) {
	if framework == "" {
		return nil, errors.New("extends.kudo needs a framework name")
	}
	if len(s.Repositories) == 0 {
		return nil, fmt.Errorf("framework %s version %s: the FunctionConfig names no spec.repositories to look it up in", framework, version)
	}
	if bundle.CheckRef(framework) != nil || (version != "" && bundle.CheckRef(version) != nil) || strings.Contains(framework+version, "/") {
		return nil, fmt.Errorf("extends.kudo: invalid framework %q or version %q", framework, version)
	}
	var looked []string
	for _, r := range s.Repositories {
		loc, err := findIn(ctx, r, framework, version)
		if err != nil || loc != nil {
			return loc, err
		}
		looked = append(looked, r.Name)
	}
	return nil, fmt.Errorf("framework %s version %s not found in repositories %s (layout <framework>/<version>/, <framework>/ with that version, or <framework>/operator/ and <framework>/<app version>/operator/ as in kudobuilder/operators)",
		framework, version, strings.Join(looked, ", "))
}

// findIn looks in one repository: <framework>/<version>/, <framework>/
// with that version (any version when none is asked for), then
// kudobuilder/operators' <framework>/operator/ and
// <framework>/<folder>/operator/ (folders in name order, at most
// maxAppFolders). It returns nil, nil when the repository does not have
// it.
func findIn(ctx context.Context, r Repository, framework, version string) (Location, error) {
	root, err := r.Location.Open(ctx)
	if err != nil {
		return nil, fmt.Errorf("repository %q: %w", r.Name, err)
	}
	defer root.Close()
	dirs := []string{framework}
	if version != "" {
		dirs = []string{framework + "/" + version, framework}
	}
	dirs = append(dirs, framework+"/operator")
	if list, err := fs.ReadDir(root.FS, framework); err == nil {
		for i, e := range list {
			if i == maxAppFolders {
				break
			}
			if e.IsDir() && e.Name() != "operator" && !strings.HasPrefix(e.Name(), ".") {
				dirs = append(dirs, framework+"/"+e.Name()+"/operator")
			}
		}
	}
	for i, dir := range dirs {
		// <framework>/<version>/ is that version by its name; any other
		// folder by what its package declares.
		if v, ok := versionAt(root.FS, dir); ok && (version == "" || v == version || i == 0 && dir != framework) {
			return r.Location.Join(dir)
		}
	}
	return nil, nil
}

// maxAppFolders bounds the folders of <framework>/ that findIn looks into
// for kudobuilder/operators' <framework>/<app version>/operator/.
const maxAppFolders = 100

// versionAt reads the version of the bundle in dir, if there is one.
func versionAt(root fs.FS, dir string) (string, bool) {
	for _, f := range []string{"framework.yaml", "operator.yaml"} {
		data, err := fs.ReadFile(root, dir+"/"+f)
		if err != nil {
			continue
		}
		var meta struct {
			Version         string `yaml:"version"`
			OperatorVersion string `yaml:"operatorVersion"`
		}
		if strictyaml.Unmarshal(f, data, &meta) != nil {
			return "", false
		}
		if meta.Version != "" {
			return meta.Version, true
		}
		return meta.OperatorVersion, true
	}
	return "", false
}
