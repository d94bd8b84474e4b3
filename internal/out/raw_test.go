package out

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoRawWrites fails on any write to a terminal that does not go through
// this package: fmt.Print*, fmt.Fprint* or io.WriteString to a Stdout or
// Stderr, an encoder or a tabwriter made on one, or a Write on one. The
// launch hands Claude its own stdout and stderr; that is Claude's output, not
// a write of ours, and no call here writes to them.
func TestNoRawWrites(t *testing.T) {
	root := filepath.Join("..", "..")
	var found []string
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(path string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if de.IsDir() {
				switch de.Name() {
				case "out", "testenv", "testdata":
					return filepath.SkipDir // this package; the tests' stand-ins for Claude
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			found = append(found, rawWrites(t, path)...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range found {
		t.Errorf("%s writes to a terminal without package out: print it with out.To(w).Line/Linef/Table/JSON", f)
	}
}

// rawWrites lists the raw writes in one file, as file:line call.
func rawWrites(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		name := callName(call.Fun)
		raw := false
		switch name {
		case "fmt.Print", "fmt.Printf", "fmt.Println":
			raw = true
		case "fmt.Fprint", "fmt.Fprintf", "fmt.Fprintln", "io.WriteString", "json.NewEncoder", "tabwriter.NewWriter":
			raw = len(call.Args) > 0 && isStream(call.Args[0])
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Write" || sel.Sel.Name == "WriteString") && isStream(sel.X) {
			raw = true
		}
		if raw {
			out = append(out, fset.Position(call.Pos()).String()+" "+name)
		}
		return true
	})
	return out
}

func callName(e ast.Expr) string {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			return id.Name + "." + sel.Sel.Name
		}
		return sel.Sel.Name
	}
	return ""
}

// isStream reports whether e names a standard stream: os.Stdout, d.Stderr,
// io.Stdout, stdout …
func isStream(e ast.Expr) bool {
	var name string
	switch x := e.(type) {
	case *ast.SelectorExpr:
		name = x.Sel.Name
	case *ast.Ident:
		name = x.Name
	}
	switch strings.ToLower(name) {
	case "stdout", "stderr":
		return true
	}
	return false
}
