package gitcmd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOnlyGitcmdStartsGit fails when code of the program other than this
// package starts git itself (exec.Command("git", …), exec.CommandContext
// (ctx, "git", …), or a git found with exec.LookPath): such a git would run
// what a repository's configuration names. Tests and the test harness
// (internal/testenv, which makes the fixtures) are not part of the program.
func TestOnlyGitcmdStartsGit(t *testing.T) {
	root := filepath.Join("..", "..")
	var found []string
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			switch rel {
			case ".git", "bench", "vendor", "testscripts", filepath.Join("internal", "testenv"):
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, 0)
		if err != nil {
			return err
		}
		checked++
		for _, call := range gitExecs(f) {
			if filepath.Dir(rel) != filepath.Join("internal", "gitcmd") {
				found = append(found, rel+": "+call)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("checked only %d files: the walk missed the source tree", checked)
	}
	for _, f := range found {
		t.Errorf("%s starts git itself; run it through gitcmd.Git", f)
	}
}

// gitExecs lists the calls in f that start a program named "git".
func gitExecs(f *ast.File) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		pkg, ok := sel.X.(*ast.Ident)
		if !ok || pkg.Name != "exec" && pkg.Name != "syscall" {
			return true
		}
		arg := -1
		switch sel.Sel.Name {
		case "Command", "LookPath", "Exec":
			arg = 0
		case "CommandContext":
			arg = 1
		}
		if arg < 0 || len(call.Args) <= arg {
			return true
		}
		if lit, ok := call.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && (s == "git" || strings.HasSuffix(s, "/git")) {
				out = append(out, pkg.Name+"."+sel.Sel.Name+"("+lit.Value+")")
			}
		}
		return true
	})
	return out
}

// TestGitExecsFindsThem checks the finder itself on the forms it must see.
func TestGitExecsFindsThem(t *testing.T) {
	src := `package p
import "os/exec"
func f() {
	exec.Command("git", "status")
	exec.CommandContext(ctx, "git", "fetch")
	exec.LookPath("git")
	exec.Command("/usr/bin/git")
	exec.Command("sh", "-c", "git status")
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := gitExecs(f); len(got) != 4 {
		t.Errorf("gitExecs found %q, want the first four calls", got)
	}
}
