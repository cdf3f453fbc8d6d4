package versions

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/golden"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func TestTableSortedAndUnique(t *testing.T) {
	rows := Table()
	seen := map[string]bool{}
	for i, r := range rows {
		key := r.APIVersion + " " + r.Kind
		if seen[key] {
			t.Errorf("%s is listed twice", key)
		}
		seen[key] = true
		if i > 0 {
			p := rows[i-1]
			if c := p.Removed.Compare(r.Removed); c > 0 || c == 0 && p.APIVersion+" "+p.Kind > key {
				t.Errorf("%s %s comes before %s", p.APIVersion, p.Kind, key)
			}
		}
		if r.Removed.Compare(kubeversion.Default) > 0 {
			t.Errorf("%s: removed in %s, after Default", key, r.Removed)
		}
		if len(r.Successors) == 0 && r.Instead == "" {
			t.Errorf("%s: neither a successor nor what to use instead", key)
		}
		if len(r.Successors) > 0 && lookup(r.APIVersion, r.Kind).successor(r.Removed) == "" {
			t.Errorf("%s: no successor is served when it is removed", key)
		}
	}
	rows[0].Successors = append(rows[0].Successors, Successor{APIVersion: "x"})
	if reflect.DeepEqual(rows[0], Table()[0]) {
		t.Error("Table returns the table itself, not a copy")
	}
}

// lifecycle is what a Go type of k8s.io/api says of its own removal.
type lifecycle interface {
	APILifecycleRemoved() (major, minor int)
}

type replacement interface {
	APILifecycleReplacement() schema.GroupVersionKind
}

// notManifests are kinds of k8s.io/api that are no objects of a
// manifest: subresources and requests of the API, not stored.
var notManifests = map[string]bool{
	"apps/v1beta1 DeploymentRollback": true, "apps/v1beta1 Scale": true, "apps/v1beta2 Scale": true,
	"extensions/v1beta1 DeploymentRollback": true, "extensions/v1beta1 Scale": true,
	"policy/v1beta1 Eviction": true,
}

// TestTableMatchesKubernetes compares the table with the lifecycle the Go
// types of k8s.io/api declare (kube-apiserver stops serving a beta API at
// its declared removal): every beta kind they declare removed by Default
// is in the table with the same version, and every row that has Go types
// agrees with them.
func TestTableMatchesKubernetes(t *testing.T) {
	types := clientgoscheme.Scheme.AllKnownTypes()
	for gvk, typ := range types {
		key := gvk.GroupVersion().String() + " " + gvk.Kind
		lc, ok := reflect.New(typ).Interface().(lifecycle)
		if !ok || strings.HasSuffix(gvk.Kind, "List") || strings.Contains(gvk.Version, "alpha") || notManifests[key] {
			continue
		}
		removed := kubeversion.Version{}
		removed.Major, removed.Minor = lc.APILifecycleRemoved()
		r := lookup(gvk.GroupVersion().String(), gvk.Kind)
		if removed.Compare(kubeversion.Default) > 0 {
			if r != nil {
				t.Errorf("%s: in the table, but Kubernetes %s still serves it (removed in %s)", key, kubeversion.Default, removed)
			}
			continue
		}
		if r == nil {
			t.Errorf("%s: removed in Kubernetes %s, not in the table", key, removed)
			continue
		}
		if r.Removed != removed {
			t.Errorf("%s: removed in %s in the table, in %s for Kubernetes", key, r.Removed, removed)
		}
		if rp, ok := reflect.New(typ).Interface().(replacement); ok {
			gv := rp.APILifecycleReplacement().GroupVersion().String()
			if !slices.ContainsFunc(r.Successors, func(s Successor) bool { return s.APIVersion == gv }) {
				t.Errorf("%s: Kubernetes names %s as its replacement, the table does not", key, gv)
			}
		}
	}
	for _, r := range table() {
		gv, _ := schema.ParseGroupVersion(r.APIVersion)
		if _, ok := types[gv.WithKind(r.Kind)]; !ok && r.how == byScheme && len(r.Successors) > 0 && !strings.Contains(gv.Version, "alpha") {
			t.Errorf("%s %s: converted with Go types that k8s.io/api does not have", r.APIVersion, r.Kind)
		}
	}
}

func TestSuccessor(t *testing.T) {
	for _, tc := range []struct {
		reason, apiVersion, kind string
		target                   kubeversion.Version
		want                     string
	}{
		{"the only successor", "policy/v1beta1", "PodDisruptionBudget", kubeversion.Default, "policy/v1"},
		{"v1 is not served yet by 1.26: the newest beta", "flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", kubeversion.Version{Major: 1, Minor: 26}, "flowcontrol.apiserver.k8s.io/v1beta3"},
		{"v1 is served by 1.29", "flowcontrol.apiserver.k8s.io/v1beta1", "FlowSchema", kubeversion.Version{Major: 1, Minor: 29}, "flowcontrol.apiserver.k8s.io/v1"},
		{"v1beta3 is gone by 1.32", "flowcontrol.apiserver.k8s.io/v1beta2", "PriorityLevelConfiguration", kubeversion.Default, "flowcontrol.apiserver.k8s.io/v1"},
		{"a successor that is itself removed later", "extensions/v1beta1", "PodSecurityPolicy", kubeversion.Version{Major: 1, Minor: 20}, "policy/v1beta1"},
		{"... and once it is removed too", "extensions/v1beta1", "PodSecurityPolicy", kubeversion.Version{Major: 1, Minor: 25}, ""},
		{"nothing replaces it", "policy/v1beta1", "PodSecurityPolicy", kubeversion.Default, ""},
	} {
		r := lookup(tc.apiVersion, tc.kind)
		if r == nil {
			t.Fatalf("%s %s is not in the table", tc.apiVersion, tc.kind)
		}
		if got := r.successor(tc.target); got != tc.want {
			t.Errorf("%s: successor of %s %s at %s = %q; want %q", tc.reason, tc.apiVersion, tc.kind, tc.target, got, tc.want)
		}
	}
}

// TestEveryRow converts a minimal object of every row: each converts, or
// is refused with a diagnostic, never with another error (every Go type
// the table needs is in the scheme); the version before the removal keeps
// it as written.
func TestEveryRow(t *testing.T) {
	for _, r := range Table() {
		in := map[string]any{"apiVersion": r.APIVersion, "kind": r.Kind, "metadata": map[string]any{"name": "x"}}
		o := object.New(deepCopyMap(in))
		before := kubeversion.Version{Major: 1, Minor: r.Removed.Minor - 1}
		if d, err := Convert(o, before); d != nil || err != nil || !reflect.DeepEqual(o.Map, in) {
			t.Errorf("%s %s at %s: %v, %v, %v; want it untouched", r.APIVersion, r.Kind, before, d, err, o.Map)
		}
		d, err := Convert(o, kubeversion.Default)
		var dd *diag.Diagnostic
		switch {
		case err != nil && !errors.As(err, &dd):
			t.Errorf("%s %s: %v", r.APIVersion, r.Kind, err)
		case err != nil:
			if dd.Severity != diag.SeverityError || dd.Resource == nil || !strings.HasPrefix(dd.Msg, fmt.Sprintf("%s %s is removed in Kubernetes %s (target %s), and ", r.APIVersion, r.Kind, r.Removed, kubeversion.Default)) {
				t.Errorf("%s %s: refused with %#v", r.APIVersion, r.Kind, dd)
			}
			if !reflect.DeepEqual(o.Map, in) {
				t.Errorf("%s %s: refused, but changed to %v", r.APIVersion, r.Kind, o.Map)
			}
		case d == nil || d.Severity != diag.SeverityInfo || o.APIVersion() != lookup(r.APIVersion, r.Kind).successor(kubeversion.Default):
			t.Errorf("%s %s: %v, %v", r.APIVersion, r.Kind, d, o.Map)
		}
	}
}

const docFile = "../../../docs/kubernetes-versions.md"

// TestDocTable keeps the table of docs/kubernetes-versions.md equal to
// Table() (-update rewrites it).
func TestDocTable(t *testing.T) {
	b, err := os.ReadFile(docFile)
	if err != nil {
		t.Fatal(err)
	}
	const start, end = "<!-- table: generated from versions.Table() by TestDocTable -->\n", "<!-- end of table -->\n"
	doc := string(b)
	i, j := strings.Index(doc, start), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no table between %q and %q", docFile, start, end)
	}
	file, _ := filepath.Abs(docFile) // outside testdata: by absolute path
	golden.Assert(t, doc[:i+len(start)]+docTable()+doc[j:], file)
}

// docTable writes Table() as Markdown.
func docTable() string {
	var b strings.Builder
	b.WriteString("| removed in | API version | kind | becomes | what changes |\n|---|---|---|---|---|\n")
	for _, r := range Table() {
		var succ []string
		for _, s := range r.Successors {
			succ = append(succ, fmt.Sprintf("%s (since %s)", s.APIVersion, s.Since))
		}
		if r.Instead != "" {
			succ = append(succ, "nothing: use "+r.Instead)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.Removed, r.APIVersion, r.Kind, strings.Join(succ, ", else "), r.Changes)
	}
	return b.String()
}

func TestStillServed(t *testing.T) {
	cases := []struct {
		reason, apiVersion, kind string
		target                   kubeversion.Version
		want                     bool
	}{
		{"policy/v1beta1 PDBs are served until 1.24", "policy/v1beta1", "PodDisruptionBudget", kubeversion.Version{Major: 1, Minor: 24}, true},
		{"and removed in 1.25", "policy/v1beta1", "PodDisruptionBudget", kubeversion.Version{Major: 1, Minor: 25}, false},
		{"a version the table does not list", "v1", "ConfigMap", kubeversion.Version{Major: 1, Minor: 16}, false},
	}
	for _, c := range cases {
		if got := StillServed(c.apiVersion, c.kind, c.target); got != c.want {
			t.Errorf("%s: StillServed = %t, want %t", c.reason, got, c.want)
		}
	}
}
