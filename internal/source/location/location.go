package location

import (
	"context"
	"io/fs"
)

// Location is where a bundle is.
type Location interface {
	// Open makes the folder readable. The caller closes what it opened.
	Open(ctx context.Context) (*Opened, error)
	// Join returns the location of rel relative to this one (an extends
	// path, a KudoOperator package path, a repository's sub-folder). A
	// path may not leave a git repository; local paths are checked against
	// the confinement when opened.
	Join(rel string) (Location, error)
	// Name is the folder's base name: the bundle's name in messages when
	// it has none.
	Name() string
	// String describes the location for messages (credentials scrubbed).
	String() string
}

// Opened is a bundle folder ready to read.
type Opened struct {
	FS fs.FS
	// ID identifies the exact content, for cycle detection and
	// provenance: an absolute folder, or url@commit:path (credentials
	// scrubbed).
	ID string
	// Pin is the resolved pin of a remote location (a git commit).
	Pin string
	// Remote is true for sources whose ID may appear in the output's
	// provenance (remote sources); local folders stay out of the output.
	Remote bool
	close  func()
}

// NewOpened makes an Opened with a function that releases it (may be nil).
func NewOpened(fsys fs.FS, id, pin string, remote bool, close func()) *Opened {
	return &Opened{FS: fsys, ID: id, Pin: pin, Remote: remote, close: close}
}

// Close releases the folder.
func (o *Opened) Close() {
	if o != nil && o.close != nil {
		o.close()
		o.close = nil
	}
}
