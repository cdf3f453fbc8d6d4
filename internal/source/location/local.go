package location

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Local is a folder on disk.
type Local struct {
	Dir string
	// Confine, when set, is a folder the location may not leave once
	// symbolic links are resolved.
	Confine string
}

// Open opens the folder through an os.Root: nothing outside it can be
// read through the returned FS.
func (l Local) Open(context.Context) (*Opened, error) {
	if l.Confine != "" {
		if err := Confined(l.Confine, l.Dir); err != nil {
			return nil, err
		}
	}
	abs, err := filepath.Abs(l.Dir)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", l.Dir, err)
	}
	return NewOpened(root.FS(), abs, "", false, func() { root.Close() }), nil
}

// Join returns the folder rel relative to l (an absolute rel stands for
// itself), with l's confinement.
func (l Local) Join(rel string) (Location, error) {
	p := filepath.FromSlash(rel)
	if !filepath.IsAbs(p) {
		p = filepath.Join(l.Dir, p)
	}
	return Local{Dir: p, Confine: l.Confine}, nil
}

// Name is the folder's base name.
func (l Local) Name() string { return filepath.Base(filepath.Clean(l.Dir)) }

func (l Local) String() string { return l.Dir }

// Confined checks that dir is inside root once symbolic links are
// resolved.
func Confined(root, dir string) error {
	r, err := realPath(root)
	if err != nil {
		return err
	}
	d, err := realPath(dir)
	if err != nil {
		return fmt.Errorf("cannot open %s: %w", dir, err)
	}
	rel, err := filepath.Rel(r, d)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("%s is outside %s: local paths may not leave it", dir, root)
	}
	return nil
}

func realPath(p string) (string, error) {
	a, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(a)
}
