package kubeversion

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a minor version of Kubernetes: 1.34.
type Version struct{ Major, Minor int }

// Default is the newest Kubernetes minor version kudo-render supports: the
// version of the Kubernetes libraries it is built with (k8s.io/* v0.37.2),
// whose types, conversions and defaults Convert uses. A render targets it
// unless told otherwise.
var Default = Version{1, 37}

// Oldest is the oldest Kubernetes minor version Parse accepts. KUDO
// packages declare the Kubernetes version they were written for in
// operator.yaml (kubernetesVersion); the oldest the packages of KUDO's
// operator repository declare is 1.13. No API version is removed before
// 1.16, so every target from 1.13 to 1.15 keeps every object as written.
var Oldest = Version{1, 13}

// String formats v as "1.34".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// Compare returns -1, 0 or +1 as v is older than, the same as or newer
// than w.
func (v Version) Compare(w Version) int {
	switch {
	case v.Major != w.Major:
		return sign(v.Major - w.Major)
	default:
		return sign(v.Minor - w.Minor)
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// Parse reads a Kubernetes version: "1.34", "v1.34", "1.34.4", "v1.34.4"
// (the patch and a suffix after it such as "-eks-1" or "+k3s1", as
// kubectl version prints them, are ignored). It refuses versions outside
// Oldest..Default: what a newer version removes is not known to this
// build.
func Parse(s string) (Version, error) {
	fail := func(why string) (Version, error) {
		return Version{}, fmt.Errorf("Kubernetes version %q: %s", s, why)
	}
	t := strings.TrimPrefix(s, "v")
	suffix := false
	if i := strings.IndexAny(t, "-+"); i >= 0 {
		t, suffix = t[:i], true
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 || suffix && len(parts) != 3 {
		return fail("want MAJOR.MINOR, such as " + Default.String() + " (a leading v and a patch version are allowed: v" + Default.String() + ".1)")
	}
	var n [3]int
	for i, p := range parts {
		v, ok := number(p)
		if !ok {
			return fail(fmt.Sprintf("%q is not a version number", p))
		}
		n[i] = v
	}
	v := Version{n[0], n[1]}
	switch {
	case v.Major != 1:
		return fail(fmt.Sprintf("Kubernetes has no major version %d", v.Major))
	case v.Compare(Oldest) < 0:
		return fail("older than " + Oldest.String() + ", the oldest version kudo-render supports")
	case v.Compare(Default) > 0:
		return fail("newer than " + Default.String() + ", the newest version kudo-render supports (its Kubernetes libraries are of " + Default.String() + ": what later versions remove is not known to it)")
	}
	return v, nil
}

// number reads a decimal number of up to 4 digits without sign or
// leading zeros.
func number(s string) (int, bool) {
	if s == "" || len(s) > 4 || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
