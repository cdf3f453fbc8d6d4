package argocd

import (
	"path/filepath"
	"strings"
)

// RepositoryRoot is the folder an application's local paths must stay in:
// the plugin runs in <repository>/<ARGOCD_APP_SOURCE_PATH>, so the
// repository is the working directory without the source path. When the
// source path is absent, absolute or does not end the working directory,
// the working directory itself is the root.
func RepositoryRoot(wd, sourcePath string) string {
	sp := filepath.Clean(sourcePath)
	if sourcePath == "" || sp == "." || filepath.IsAbs(sp) {
		return wd
	}
	if suffix := string(filepath.Separator) + sp; strings.HasSuffix(wd, suffix) {
		return strings.TrimSuffix(wd, suffix)
	}
	return wd
}
