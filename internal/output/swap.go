package output

import (
	"os"
	"path/filepath"
)

// swapTwoSteps moves dir aside, moves tmp in, and removes the old tree;
// if the second rename fails the old tree is moved back.
func swapTwoSteps(tmp, dir string) error {
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.Rename(old, dir)
		return err
	}
	_ = syncDir(filepath.Dir(dir))
	return os.RemoveAll(old)
}
