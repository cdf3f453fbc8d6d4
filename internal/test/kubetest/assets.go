package kubetest

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

// AssetsEnvVar names the folder of kube-apiserver and etcd, as in
// controller-runtime's envtest.
const AssetsEnvVar = "KUBEBUILDER_ASSETS"

// RequireEnvVar set to 1 (or CI set to anything) makes a missing server a
// test failure instead of a skip.
const RequireEnvVar = "KUDO_RENDER_REQUIRE_APISERVER"

// Assets returns the folder of the kube-apiserver and etcd binaries:
// $KUBEBUILDER_ASSETS when set, else the cache folder install.sh fills
// ($KUDO_RENDER_KUBE_ASSETS, else ~/.cache/kudo-render/kube/<version>, the
// version of the k8s.io/* modules this binary was built with). ok reports
// whether both binaries are there; kube-controller-manager, which only
// StartWithGC needs, may be missing (a cache filled before install.sh
// built it).
func Assets() (dir string, ok bool) {
	dir = os.Getenv(AssetsEnvVar)
	if dir == "" {
		dir = os.Getenv("KUDO_RENDER_KUBE_ASSETS")
	}
	if dir == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", false
			}
			cache = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(cache, "kudo-render", "kube", KubeVersion())
	}
	for _, name := range []string{"kube-apiserver", "etcd"} {
		if !executable(filepath.Join(dir, name)) {
			return dir, false
		}
	}
	return dir, true
}

// executable reports whether file is an executable file.
func executable(file string) bool {
	info, err := os.Stat(file)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

// KubeVersion is the Kubernetes release of the k8s.io/* modules this
// binary was built with (k8s.io/apimachinery v0.37.2: v1.37.2), the one
// install.sh builds; v1.37.2 when the binary has no module information.
func KubeVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path != "k8s.io/apimachinery" {
				continue
			}
			v := m.Version
			if m.Replace != nil && m.Replace.Version != "" {
				v = m.Replace.Version
			}
			if rest, ok := strings.CutPrefix(v, "v0."); ok {
				return "v1." + rest
			}
		}
	}
	return "v1.37.2"
}

// required reports whether a missing server fails the test.
func required() bool {
	return os.Getenv("CI") != "" || os.Getenv(RequireEnvVar) == "1"
}
