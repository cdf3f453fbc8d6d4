package arch_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// configImports are the packages of the module that the FunctionConfig
// API (config) may import, directly or not: the package model, the YAML
// door, the helpers below them, and location (a file is read only when it
// is a regular file inside its root: location.ReadRegular). A program that reads or writes a
// FrameworkRender pays for these and nothing of the render.
var configImports = []string{
	"bundle", "internal/diag", "internal/limits", "internal/suggest", "internal/lazy", "internal/par",
	"internal/yaml/simpleyaml", "internal/yaml/strictyaml", "internal/yaml/object", "internal/kube/kubeversion",
	"internal/source/location",
}

// maxConfigDeps bounds the packages `go list -deps ./config` lists,
// the standard library included (86 when the bound was set; 1,329, 88 of
// them k8s.io/kubernetes, when config also ran the render).
const maxConfigDeps = 100

// TestConfigIsTheAPIOnly fails when config imports the render (any
// package of the module but configImports), any Kubernetes package, or
// more than maxConfigDeps packages in all.
func TestConfigIsTheAPIOnly(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", module+"/config")
	cmd.Dir = "../../.."
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("go list is not available: %v", err)
	}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		switch {
		case strings.HasPrefix(d, "k8s.io/"):
			t.Errorf("config imports %s: the API imports no Kubernetes package", d)
		case strings.HasPrefix(d, module+"/") && !slices.Contains(configImports, rel(d)) && rel(d) != "config":
			t.Errorf("config imports %s: the render's wiring belongs in internal/runner (or add a light helper to configImports)", rel(d))
		}
	}
	if len(deps) > maxConfigDeps {
		t.Errorf("config imports %d packages, more than %d: a program that only reads a FrameworkRender pays for each", len(deps), maxConfigDeps)
	}
}

// TestConfigAPIHasNoInternalTypes fails when an exported function, method,
// type or field of config names a type of an internal package: a program
// of another module could not build or name it.
func TestConfigAPIHasNoInternalTypes(t *testing.T) {
	files, err := filepath.Glob("../../../config/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no files of config: %v", err)
	}
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		internal := map[string]string{} // local name -> import path
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(ip, "/internal/") {
				name := ip[strings.LastIndex(ip, "/")+1:]
				if imp.Name != nil {
					name = imp.Name.Name
				}
				internal[name] = ip
			}
		}
		for _, where := range exportedTypeUses(f) {
			ast.Inspect(where.expr, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] != "" {
						t.Errorf("%s: %s names %s.%s, a type of %s", fset.Position(sel.Pos()), where.name, id.Name, sel.Sel.Name, internal[id.Name])
					}
				}
				return true
			})
		}
	}
}

type typeUse struct {
	name string
	expr ast.Expr
}

// exportedTypeUses lists the type expressions of a file's exported API:
// the parameters and results of exported functions and of exported
// methods of exported types, exported fields (and embedded ones) of
// exported struct types, and the types that exported types are defined
// as.
func exportedTypeUses(f *ast.File) []typeUse {
	var out []typeUse
	fields := func(name string, fl *ast.FieldList, all bool) {
		if fl == nil {
			return
		}
		for _, fd := range fl.List {
			exported := all || len(fd.Names) == 0 || slices.ContainsFunc(fd.Names, func(n *ast.Ident) bool { return n.IsExported() })
			if exported {
				out = append(out, typeUse{name, fd.Type})
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Recv != nil && !ast.IsExported(strings.TrimPrefix(types(d.Recv.List[0].Type), "*")) {
				continue
			}
			fields(d.Name.Name, d.Type.Params, true)
			fields(d.Name.Name, d.Type.Results, true)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				ts, ok := s.(*ast.TypeSpec)
				if !ok || !ts.Name.IsExported() {
					continue
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					fields(ts.Name.Name, st.Fields, false)
				} else {
					out = append(out, typeUse{ts.Name.Name, ts.Type})
				}
			}
		}
	}
	return out
}

// types names a receiver's type: T or *T.
func types(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return "*" + types(t.X)
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return types(t.X)
	}
	return ""
}
