package runner

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/kudo-render/kudo-render/config"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/location"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// maxCRDFiles bounds the files read from the folders of spec.crds.
const maxCRDFiles = 10000

// CRDs reads the CustomResourceDefinitions of spec.crds: YAML files, or
// folders whose *.yaml and *.yml files are read (subfolders included);
// other kinds in them are ignored. Paths are relative to the config's
// folder and, for the KRM function and the Argo CD plugin, stay inside
// their confinement folder (symbolic links resolved); files are read
// through an os.Root, each within --max-file-bytes and --max-yaml-values.
func CRDs(c *config.Config) ([]*object.Object, error) {
	var out []*object.Object
	for i, p := range c.Spec.CRDs {
		objs, err := readCRDs(c, p)
		if err != nil {
			return nil, fmt.Errorf("%s: spec.crds[%d]: %w", c.File, i, err)
		}
		out = append(out, objs...)
	}
	return out, nil
}

func readCRDs(c *config.Config, p string) ([]*object.Object, error) {
	full := c.LocalPath(p)
	if confine := c.ConfineDir(); confine != "" {
		if err := location.Confined(confine, full); err != nil {
			return nil, err
		}
	}
	info, err := os.Stat(full)
	if err != nil {
		return nil, err
	}
	dir, name := full, "."
	if !info.IsDir() {
		dir, name = filepath.Dir(full), filepath.Base(full)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var files []string
	err = fs.WalkDir(root.FS(), name, func(f string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() || !(strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".yml")) && f != name:
			return nil
		case len(files) >= maxCRDFiles:
			return fmt.Errorf("more than %d files", maxCRDFiles)
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []*object.Object
	for _, f := range files {
		objs, err := readCRDFile(root, f)
		if err != nil {
			shown := p // a file of spec.crds itself
			if info.IsDir() {
				shown = path.Join(p, f)
			}
			return nil, fmt.Errorf("%s: %w", shown, err)
		}
		out = append(out, objs...)
	}
	return out, nil
}

// readCRDFile reads the CustomResourceDefinitions of one YAML stream. What
// is not a regular file (a named pipe called *.yaml would block the
// process) is refused before it is opened (location.ReadRegular).
func readCRDFile(root *os.Root, name string) ([]*object.Object, error) {
	data, err := location.ReadRegular(root, name, limits.Current().FileBytes)
	if err != nil {
		return nil, err
	}
	var out []*object.Object
	for doc, err := range strictyaml.Stream("", data) { // the caller names the file
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := doc.Decode(&m); err != nil {
			return nil, strictyaml.YAMLErrors("", err)[0]
		}
		o := object.New(m)
		if o.Kind() == "CustomResourceDefinition" && o.Group() == "apiextensions.k8s.io" {
			out = append(out, o)
		}
	}
	return out, nil
}
