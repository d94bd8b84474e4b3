package guard

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// A finding is one thing a guard flags: where, in which function, and what
// (the object used or the function called, by its full name).
type finding struct {
	pos  token.Position
	fn   string // the enclosing top-level function, as allowKey names it
	what string
	why  string
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d: %s (in %s): %s", relPath(f.pos.Filename), f.pos.Line, f.what, f.fn, f.why)
}

// allowKey is how an allowance names a finding: the function it is in and
// what it uses, so that one allowed call lets no other through.
func (f finding) allowKey() string { return f.fn + " " + f.what }

func relPath(file string) string {
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	if r, err := filepath.Rel(root, file); err == nil {
		return r
	}
	return file
}

// shortName is a module-relative name: internal/cli.Main for
// github.com/claude-account/claude-account/internal/cli.Main.
func shortName(s string) string {
	return strings.ReplaceAll(s, modulePath+"/", "")
}

// funcName names the function a node is in, for allowances: its FuncDecl
// (closures belong to it), or "pkg.(package level)" for a var's value.
func funcName(p *pkg, decl *ast.FuncDecl) string {
	if decl == nil {
		return shortName(p.path) + ".(package level)"
	}
	if fn, ok := p.info.Defs[decl.Name].(*types.Func); ok {
		return shortName(fn.FullName())
	}
	return shortName(p.path) + "." + decl.Name.Name
}

// walk visits every node of every file of the packages with the top-level
// declaration it is in, and its FuncDecl (nil at package level).
func walk(pkgs []*pkg, visit func(p *pkg, top ast.Decl, decl *ast.FuncDecl, n ast.Node)) {
	for _, p := range pkgs {
		for _, f := range p.files {
			for _, d := range f.Decls {
				decl, _ := d.(*ast.FuncDecl)
				ast.Inspect(d, func(n ast.Node) bool {
					if n != nil {
						visit(p, d, decl, n)
					}
					return true
				})
			}
		}
	}
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// calleeExpr is the expression a call calls, without parentheses or a
// generic instantiation (f[T](…)).
func calleeExpr(info *types.Info, call *ast.CallExpr) ast.Expr {
	fun := unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		if _, ok := info.Types[x.X].Type.(*types.Signature); ok && !info.Types[x.X].IsType() {
			return unparen(x.X)
		}
	case *ast.IndexListExpr:
		return unparen(x.X)
	}
	return fun
}

// staticCallee is the function or method a call statically calls (its
// generic origin), or nil for a call of a function value, a conversion or
// a builtin. An interface's method is returned too: callers ask isAbstract.
func staticCallee(info *types.Info, call *ast.CallExpr) *types.Func {
	var obj types.Object
	switch f := calleeExpr(info, call).(type) {
	case *ast.Ident:
		obj = info.Uses[f]
	case *ast.SelectorExpr:
		if sel := info.Selections[f]; sel != nil {
			if sel.Kind() == types.FieldVal {
				return nil // a func-typed field
			}
			obj = sel.Obj()
		} else {
			obj = info.Uses[f.Sel]
		}
	}
	if fn, ok := obj.(*types.Func); ok {
		return fn.Origin()
	}
	return nil
}

// isAbstract reports whether fn is an interface's method: which code runs
// is not known here.
func isAbstract(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	return sig.Recv() != nil && types.IsInterface(sig.Recv().Type())
}

// isFunc reports whether fn is the package-level function pkg.name.
func isFunc(fn *types.Func, pkg string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != pkg || fn.Type().(*types.Signature).Recv() != nil {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// constString is e's value when it is a string constant: a literal, a
// named constant or an expression of them ("/usr/bin/" + gitName).
func constString(info *types.Info, e ast.Expr) (string, bool) {
	v := info.Types[e].Value
	if v == nil || v.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(v), true
}

// constInt is e's value when it is an integer constant.
func constInt(info *types.Info, e ast.Expr) (int64, bool) {
	v := info.Types[e].Value
	if v == nil || v.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(v)
}

// allowed splits findings into those no allowance covers and fails the
// test for each allowance that covered nothing: an allowance outliving its
// call would let the next one through unseen.
func allowed(t *testing.T, findings []finding, allow map[string]string) []finding {
	t.Helper()
	used := map[string]bool{}
	var left []finding
	for _, f := range findings {
		if _, ok := allow[f.allowKey()]; ok {
			used[f.allowKey()] = true
			continue
		}
		left = append(left, f)
	}
	for k := range allow {
		if !used[k] {
			t.Errorf("the allowance %q covers nothing any more: remove it", k)
		}
	}
	return left
}

// dedup sorts findings and drops those found twice (by each GOOS's tree).
func dedup(fs []finding) []finding {
	sort.Slice(fs, func(i, j int) bool { return fs[i].String() < fs[j].String() })
	var out []finding
	for i, f := range fs {
		if i == 0 || f.String() != fs[i-1].String() {
			out = append(out, f)
		}
	}
	return out
}

var wantRE = regexp.MustCompile(`// want ("[^"]*"(?:\s+"[^"]*")*)`)

// expectWants checks findings against the `// want "what"` comments of the
// testdata package: each one on its line (its text a part of what), and
// nothing found on a line that wants nothing.
func expectWants(t *testing.T, p *pkg, findings []finding) {
	t.Helper()
	type line struct {
		file string
		n    int
	}
	wants := map[line][]string{}
	for _, f := range p.files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				m := wantRE.FindStringSubmatch(c.Text)
				if m == nil {
					continue
				}
				pos := p.fset.Position(c.Pos())
				for _, q := range regexp.MustCompile(`"[^"]*"`).FindAllString(m[1], -1) {
					s, _ := strconv.Unquote(q)
					wants[line{pos.Filename, pos.Line}] = append(wants[line{pos.Filename, pos.Line}], s)
				}
			}
		}
	}
	if len(wants) == 0 {
		t.Fatalf("%s has no want comments", p.path)
	}
	got := map[line][]finding{}
	for _, f := range findings {
		l := line{f.pos.Filename, f.pos.Line}
		got[l] = append(got[l], f)
	}
	for l, ws := range wants {
		for _, w := range ws {
			ok := false
			for _, f := range got[l] {
				ok = ok || strings.Contains(f.what, w)
			}
			if !ok {
				t.Errorf("%s:%d: want a finding %q, got %v", relPath(l.file), l.n, w, got[l])
			}
		}
	}
	for l, fs := range got {
		if len(wants[l]) == 0 {
			for _, f := range fs {
				t.Errorf("unexpected finding %s", f)
			}
		}
	}
}

// readHere reports whether fn's body is among the code read: a function or
// a concrete method of the module (not an interface's method, whose code is
// not known, nor error's Error, which belongs to no package).
func readHere(fn *types.Func) bool {
	return fn != nil && fn.Pkg() != nil && inModule(fn.Pkg().Path()) && !isAbstract(fn)
}
