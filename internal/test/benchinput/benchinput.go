package benchinput

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ZookeeperVersion is the operator version of the corpus's zookeeper
// package, as Instance items name it.
const ZookeeperVersion = "zookeeper-0.3.3"

// ZookeeperInstances is a ResourceList of n kudo.dev/v1beta1 Instance
// items of zookeeper (zk-0 ... in namespace data, NODE_COUNT 3) whose
// functionConfig maps ZookeeperVersion to the package folder pkgPath,
// relative to the function's working directory.
func ZookeeperInstances(n int, pkgPath string) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, `- apiVersion: kudo.dev/v1beta1
  kind: Instance
  metadata:
    name: zk-%d
    namespace: data
  spec:
    operatorVersion:
      name: %s
    parameters:
      NODE_COUNT: "3"
`, i, ZookeeperVersion)
	}
	fmt.Fprintf(&b, `functionConfig:
  apiVersion: kudorender.dev/v1alpha1
  kind: FrameworkRender
  metadata:
    name: instances
  spec:
    operators:
      %s: {path: %s}
`, ZookeeperVersion, pkgPath)
	return []byte(b.String())
}

// ConfigMaps is a ResourceList of n small ConfigMaps, which the function
// passes through, and a functionConfig rendering the package at pkgPath
// (a small one: see [SmallPackage]) for instance "app" in namespace
// "data".
func ConfigMaps(n int, pkgPath string) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm-%d
    namespace: data
    annotations:
      config.kubernetes.io/index: '0'
      config.kubernetes.io/path: 'cms/cm-%d.yaml'
      internal.config.kubernetes.io/index: '0'
      internal.config.kubernetes.io/path: 'cms/cm-%d.yaml'
  data:
    key: value-%d
`, i, i, i, i)
	}
	fmt.Fprintf(&b, `functionConfig:
  apiVersion: kudorender.dev/v1alpha1
  kind: FrameworkRender
  metadata:
    name: app
    namespace: data
  spec:
    framework: {path: %s}
    target: plain
`, pkgPath)
	return []byte(b.String())
}

// SmallPackage is a KUDO package of one ConfigMap template.
var SmallPackage = map[string]string{
	"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Name }}-cm\ndata:\n  x: {{ .Params.X | quote }}\n",
}

// ManyDocuments is a KUDO package of one template that renders n small
// ConfigMaps.
func ManyDocuments(n int) map[string]string {
	return map[string]string{
		"cm.yaml": fmt.Sprintf("{{ range $i := until %d }}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-{{ $i }}\n{{ end }}\n", n),
	}
}

// WritePackage writes a KUDO v1beta1 package named name into dir: the
// templates (file name -> content), applied by one task of a serial
// deploy plan, and one parameter X (default "1").
func WritePackage(dir, name string, templates map[string]string) error {
	names := slices.Sorted(maps.Keys(templates))
	files := map[string]string{
		"operator.yaml": `apiVersion: kudo.dev/v1beta1
name: ` + name + `
operatorVersion: 0.1.0
tasks:
  - name: app
    kind: Apply
    spec:
      resources: [` + strings.Join(names, ", ") + `]
plans:
  deploy:
    strategy: serial
    phases:
      - name: main
        strategy: serial
        steps:
          - name: app
            tasks: [app]
`,
		"params.yaml": "apiVersion: kudo.dev/v1beta1\nparameters:\n  - name: X\n    default: \"1\"\n",
	}
	for n, content := range templates {
		files[filepath.Join("templates", n)] = content
	}
	return WriteFiles(dir, files)
}

// WriteFiles writes files (slash path below dir -> content), making the
// folders they need.
func WriteFiles(dir string, files map[string]string) error {
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}
