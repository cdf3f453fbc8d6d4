package arch_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// yamlReaders are the functions of the YAML libraries that read text.
var yamlReaders = map[string][]string{
	"go.yaml.in/yaml/v3":                {"Unmarshal", "NewDecoder"},
	"go.yaml.in/yaml/v2":                {"Unmarshal", "UnmarshalStrict", "NewDecoder"},
	"gopkg.in/yaml.v3":                  {"Unmarshal", "NewDecoder"},
	"gopkg.in/yaml.v2":                  {"Unmarshal", "UnmarshalStrict", "NewDecoder"},
	"sigs.k8s.io/yaml":                  {"Unmarshal", "UnmarshalStrict", "YAMLToJSON", "YAMLToJSONStrict"},
	"sigs.k8s.io/kustomize/kyaml/yaml":  {"Unmarshal", "NewDecoder", "Parse", "MustParse"},
	"sigs.k8s.io/kustomize/kyaml/kio":   {"FromBytes", "ByteReader", "ByteReadWriter"},
	"k8s.io/apimachinery/pkg/util/yaml": {"Unmarshal", "NewYAMLOrJSONDecoder", "NewYAMLReader", "ToJSON"},
}

// yamlDoors are the files that may read YAML text with those functions,
// and why the text they read cannot be hostile there. Everything else
// reads through internal/strictyaml (Parse, Stream, Unmarshal), which
// checks characters, size and aliases first.
var yamlDoors = map[string]string{
	"internal/yaml/strictyaml/strictyaml.go": "the door (Parse, SyntaxLine)",
	"internal/yaml/strictyaml/input.go":      "the door (Stream, Unmarshal)",
	"internal/render/tmpl/decode.go":         "rendered text: checkText, CheckStream and checkAliases run before its values are walked",
	"internal/render/tmpl/fieldline.go":      "decodes again, for a message, text that Decode checked; follows a field path, never expands",
	"fn/rlist.go":                            "the ResourceList: CheckText on all of it, CheckValues and CheckAliases on each item and on a list decoded whole; re-reads its own encoding",
	"fn/krm.go":                              "an item's text that readHeader checked; the functionConfig, whose aliases are checked",
	"fn/localconfig.go":                      "an item's or the functionConfig's text that readHeader checked",
	"fn/framework.go":                        "the ResourceList of the framework path: CheckText and CheckValues on all of it before kyaml reads it, CheckAliases on each item",
	"fn/nodes.go":                            "re-reads kudo-render's own encoding of generated objects and of items read by framework.go",
	"internal/yaml/object/marshal.go":        "JSON that kudo-render encoded itself",
	"internal/adapter/review/diff/differ.go": "an object kudo-render encoded itself",
}

// TestYAMLIsReadThroughStrictYAML fails when a package reads YAML text
// with a YAML library directly, outside the files of yamlDoors: that text
// would escape the checks of characters, size and aliases.
func TestYAMLIsReadThroughStrictYAML(t *testing.T) {
	for _, p := range list(t) {
		r := rel(p.ImportPath)
		if r != "" && under(r, notCore) {
			continue // tests and test helpers
		}
		for _, f := range p.GoFiles {
			file := filepath.ToSlash(filepath.Join(r, f))
			if _, ok := yamlDoors[file]; ok {
				continue
			}
			for _, call := range yamlReads(t, filepath.Join(p.Dir, f)) {
				t.Errorf("%s: %s reads YAML text without strictyaml's checks (use strictyaml.Parse, Stream or Unmarshal, or add the file to yamlDoors with the reason its text is safe)", file, call)
			}
		}
	}
	for file := range yamlDoors {
		if len(yamlReads(t, filepath.Join("../../..", file))) == 0 && !strings.HasPrefix(file, "internal/yaml/strictyaml/") {
			t.Errorf("%s is in yamlDoors but reads no YAML: remove it", file)
		}
	}
}

// yamlReads lists the calls of yamlReaders in a Go file: "yaml.Unmarshal".
func yamlReads(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{} // local name -> import path
	for _, imp := range f.Imports {
		ip, _ := strconv.Unquote(imp.Path.Value)
		if _, ok := yamlReaders[ip]; !ok {
			continue
		}
		name := ip[strings.LastIndex(ip, "/")+1:]
		if strings.HasPrefix(name, "yaml.") {
			name = "yaml"
		}
		if ip == "go.yaml.in/yaml/v3" || ip == "go.yaml.in/yaml/v2" {
			name = "yaml"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = ip
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		if ip, ok := names[id.Name]; ok && slices.Contains(yamlReaders[ip], sel.Sel.Name) {
			out = append(out, id.Name+"."+sel.Sel.Name)
		}
		return true
	})
	return out
}
