package cmd

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynfake "k8s.io/client-go/dynamic/fake"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
)

// TestImportFromCluster: the objects of examples/migrate/kudo-export.yaml
// served by a cluster (client-go's fake dynamic client) import to the same
// files as the export does.
func TestImportFromCluster(t *testing.T) {
	data, err := os.ReadFile("../examples/migrate/kudo-export.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := yaml.Unmarshal(data, &list); err != nil {
		t.Fatal(err)
	}
	var objs []runtime.Object
	for _, it := range list.Items {
		objs = append(objs, &unstructured.Unstructured{Object: it})
	}
	kinds := map[schema.GroupVersionResource]string{}
	for _, r := range kudoResources {
		kinds[schema.GroupVersionResource{Group: "kudo.dev", Version: "v1beta1", Resource: r}] = kindOf(r) + "List"
	}
	dc := dynfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), kinds, objs...)
	var fromCluster, fromFile migrate.Export
	if err := listKUDO(context.Background(), dc, "https://cluster", "", &fromCluster); err != nil {
		t.Fatal(err)
	}
	if err := migrate.Parse("kudo-export.yaml", data, &fromFile); err != nil {
		t.Fatal(err)
	}
	opts := migrate.Options{OutDir: "/gitops", RepoURL: "https://git.example.com/gitops.git", Revision: "main"}
	a, err := migrate.Import(&fromCluster, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := migrate.Import(&fromFile, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(a.Files, b.Files, func(x, y []byte) bool { return string(x) == string(y) }) {
		t.Errorf("the cluster's objects import differently from the export's")
	}
	var other migrate.Export
	if err := listKUDO(context.Background(), dc, "https://cluster", "kafka", &other); err != nil || len(other.Instances) != 0 {
		t.Errorf("--namespace kafka: %v, %d instances", err, len(other.Instances))
	}
}

// TestImportClusterUnreachable: a cluster that cannot be reached is an
// error that says which, and nothing is written.
func TestImportClusterUnreachable(t *testing.T) {
	dir := t.TempDir()
	kc := filepath.Join(dir, "kubeconfig")
	cfg := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`
	if err := os.WriteFile(kc, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gitops")
	stdout, _, err := run("import", "--kubeconfig", kc, "--output-dir", out)
	if err == nil || !strings.Contains(err.Error(), "cannot list instances.kudo.dev on https://127.0.0.1:1") || stdout != "" {
		t.Fatalf("got %v, stdout %q", err, stdout)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("the output folder was written")
	}
}
