package guard

import (
	"go/ast"
	"go/types"
	"testing"
)

// TestOnlyFsxReplacesFiles fails when code of the program other than
// package fsx writes a file whole or moves one with the standard library's
// own calls: a file written in place is half written after a crash, and a
// rename whose directory is not synced may come undone. fsx's WriteFile,
// WriteSecret, WriteUnsynced and Rename are the one home (a temporary file
// IsTemp knows, its mode kept, the directory synced). The calls are matched
// as the functions themselves, however the import is named, and taking one
// as a value is a finding too. Each deliberate exception is allowed below,
// with why. TestWritesCatchesBypasses runs it on testdata/writes.
func TestOnlyFsxReplacesFiles(t *testing.T) {
	var found []finding
	for _, tr := range programs(t) {
		for _, p := range tr.program() {
			if p.path == modulePath+"/internal/fsx" {
				continue
			}
			found = append(found, fileWrites([]*pkg{p})...)
		}
	}
	for _, f := range allowed(t, dedup(found), writesAllowed) {
		t.Errorf("%s\n\twrites or moves a file outside fsx; use fsx.WriteFile, WriteSecret, WriteUnsynced or Rename", f)
	}
}

// writesAllowed are the deliberate exceptions, by function and call.
var writesAllowed = map[string]string{
	"internal/worktree.writeMeta os.WriteFile":  "written once into the git dir git has just made for the worktree; a torn record is ignored by ReadMeta, so the fsyncs buy nothing",
	"internal/conversation.Sample os.WriteFile": "writes a made-up transcript for the benchmarks' fixtures, never a user's file",
}

// TestWritesCatchesBypasses: every form in testdata/writes is found.
func TestWritesCatchesBypasses(t *testing.T) {
	p := testdata(t, "writes")
	expectWants(t, p, fileWrites([]*pkg{p}))
}

// replacers are the functions that write a file whole or move one.
var replacers = map[string][]string{
	"os":        {"WriteFile", "Rename"},
	"io/ioutil": {"WriteFile"},
	"syscall":   {"Rename", "Renameat"},
}

func fileWrites(pkgs []*pkg) []finding {
	var found []finding
	walk(pkgs, func(p *pkg, _ ast.Decl, decl *ast.FuncDecl, n ast.Node) {
		id, ok := n.(*ast.Ident)
		if !ok {
			return
		}
		fn, _ := p.info.Uses[id].(*types.Func)
		if fn == nil || fn.Pkg() == nil || !isFunc(fn, fn.Pkg().Path(), replacers[fn.Pkg().Path()]...) {
			return
		}
		found = append(found, finding{pos: p.fset.Position(id.Pos()), fn: funcName(p, decl),
			what: shortName(fn.FullName()), why: "replaces or moves a file itself"})
	})
	return found
}
