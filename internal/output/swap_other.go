//go:build !linux

package output

import (
	"errors"
	"io/fs"
	"os"
)

const oNoFollow = 0

// swap puts the tree tmp in place of dir (two renames where the system
// has no atomic exchange).
func swap(tmp, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dir)
	}
	return swapTwoSteps(tmp, dir)
}
