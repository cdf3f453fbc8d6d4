package migrate

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// Bounds of the search of --operators (docs/migrate-from-kudo.md): how
// deep below the folder packages are looked for, and how many folder
// entries the search reads in all. kudobuilder/operators keeps its
// packages 3 or 4 levels below its root in about 550 entries.
const (
	MaxIndexDepth   = 6
	MaxIndexEntries = 20_000
)

// index is the packages found in a folder, by the name and version their
// operator.yaml (or framework.yaml) declares, each with every folder that
// declares it.
type index struct {
	root string
	dirs map[string][]string // name@version -> folders below root, in walk order
	// deeper is the first folder not searched for being more than
	// MaxIndexDepth levels down, for messages.
	deeper string
}

// indexPackages finds every package below root, at most MaxIndexDepth
// levels down, reading at most MaxIndexEntries folder entries (more is an
// error). Folders are read in name order; hidden ones (.git), templates/
// and symbolic links are not followed, so the search stays inside root
// and gives the same result every time.
func indexPackages(root string) (*index, error) {
	ix := &index{root: root, dirs: map[string][]string{}}
	entries := 0
	var walk func(rel string, depth int) error
	walk = func(rel string, depth int) error {
		dir := filepath.Join(root, rel)
		list, err := os.ReadDir(dir)
		if err != nil {
			return fmt.Errorf("--operators %s: %w", root, err)
		}
		if entries += len(list); entries > MaxIndexEntries {
			return fmt.Errorf("--operators %s holds more than %d files and folders (searched in name order up to %s): give the folder that holds the packages (kudobuilder/operators: its repository/ folder)", root, MaxIndexEntries, dir)
		}
		if name, version, ok := declared(dir, list); ok {
			key := name + "@" + version
			ix.dirs[key] = append(ix.dirs[key], rel)
		}
		for _, e := range list {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || e.Name() == "templates" {
				continue // a symbolic link is no folder here; templates/ holds no package
			}
			if depth == MaxIndexDepth {
				if ix.deeper == "" {
					ix.deeper = filepath.Join(rel, e.Name())
				}
				continue
			}
			if err := walk(filepath.Join(rel, e.Name()), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(".", 0); err != nil {
		return nil, err
	}
	return ix, nil
}

// declared reads the name and version a package folder declares in its
// operator.yaml (name, operatorVersion) or framework.yaml (name, version);
// ok is false for a folder that holds neither as a regular file, or one
// that cannot be read (the package is loaded, with its errors, only if
// an OperatorVersion names it).
func declared(dir string, list []os.DirEntry) (name, version string, ok bool) {
	for _, e := range list {
		if !e.Type().IsRegular() || e.Name() != "operator.yaml" && e.Name() != "framework.yaml" {
			continue
		}
		data, err := readSmall(filepath.Join(dir, e.Name()))
		if err != nil {
			return "", "", false
		}
		var meta struct {
			Name            string `yaml:"name"`
			Version         string `yaml:"version"`
			OperatorVersion string `yaml:"operatorVersion"`
		}
		if strictyaml.Unmarshal(e.Name(), data, &meta) != nil || meta.Name == "" {
			return "", "", false
		}
		if e.Name() == "operator.yaml" {
			return meta.Name, meta.OperatorVersion, true
		}
		return meta.Name, meta.Version, true
	}
	return "", "", false
}

// readSmall reads a file of at most limits.FileBytes.
func readSmall(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	max := limits.Current().FileBytes
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err == nil && int64(len(data)) > max {
		err = errors.New("too large")
	}
	return data, err
}

// find is the folder of the package name@version: one folder, or an error
// that names every folder declaring it when there are several.
func (ix *index) find(name, version string) (string, bool, error) {
	dirs := ix.dirs[name+"@"+version]
	switch len(dirs) {
	case 0:
		return "", false, nil
	case 1:
		return filepath.Join(ix.root, dirs[0]), true, nil
	}
	return "", false, fmt.Errorf("package %s version %s is in several folders of --operators %s: %s; keep one, or give --operators a folder that holds one",
		name, version, ix.root, strings.Join(dirs, " and "))
}

// missing says why name@version is not in the index: the versions of
// that name it holds, and the folders it did not search.
func (ix *index) missing(name, version string) string {
	var found []string
	for _, key := range slices.Sorted(maps.Keys(ix.dirs)) {
		if n, v, _ := strings.Cut(key, "@"); n == name {
			found = append(found, v+" in "+strings.Join(ix.dirs[key], " and "))
		}
	}
	msg := fmt.Sprintf("package %s version %s is not in --operators %s", name, version, ix.root)
	switch {
	case len(found) > 0:
		msg += fmt.Sprintf(" (it holds %s %s)", name, strings.Join(found, ", "))
	case len(ix.dirs) == 0:
		msg += " (no folder there holds an operator.yaml)"
	}
	if ix.deeper != "" {
		msg += fmt.Sprintf("; folders more than %d levels down were not searched (%s)", MaxIndexDepth, ix.deeper)
	}
	return msg
}
