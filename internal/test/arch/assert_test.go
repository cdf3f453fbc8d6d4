package arch_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOneAssertionLibrary: tests assert with gotest.tools/v3 (issue 36): a
// reader learns one library and every failure prints the same way. go-cmp
// stays as the type of the options gotest.tools takes (cmpopts,
// cmp.Comparer, cmp.Options); its comparisons (cmp.Diff, cmp.Equal) and other
// assertion libraries are refused in test files.
func TestOneAssertionLibrary(t *testing.T) {
	refusedImports := map[string]string{
		"github.com/stretchr/testify/assert":  "gotest.tools/v3/assert",
		"github.com/stretchr/testify/require": "gotest.tools/v3/assert",
	}
	refusedCalls := map[string]bool{"Diff": true, "Equal": true}
	fset := token.NewFileSet()
	err := filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "../../.." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		cmpName := ""
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if instead, ok := refusedImports[p]; ok {
				t.Errorf("%s imports %s: assert with %s", fset.Position(imp.Pos()), p, instead)
			}
			if p == "github.com/google/go-cmp/cmp" {
				cmpName = "cmp"
				if imp.Name != nil {
					cmpName = imp.Name.Name
				}
			}
		}
		if cmpName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == cmpName && refusedCalls[sel.Sel.Name] {
				t.Errorf("%s: go-cmp's %s.%s compares in a test: assert with gotest.tools/v3 (assert.Check(t, is.DeepEqual(want, got, opts...)))",
					fset.Position(call.Pos()), cmpName, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
