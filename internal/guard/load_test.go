package guard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// modulePath is the module's own path: its packages are checked; every
// other package is only their dependency.
const modulePath = "github.com/claude-account/claude-account"

// A tree is a set of packages type-checked together from source, with one
// token.FileSet: every object (os.Stdout, a struct field, a parameter) is
// one *types.Var wherever it is used, so a guard can follow it across
// packages.
type tree struct {
	goos string
	fset *token.FileSet
	pkgs []*pkg // the module's packages asked for, dependencies first
}

type pkg struct {
	fset  *token.FileSet
	path  string
	files []*ast.File
	types *types.Package
	info  *types.Info
}

// inModule reports whether the package path p is one of the module's.
func inModule(p string) bool {
	return p == modulePath || strings.HasPrefix(p, modulePath+"/")
}

// listed is what `go list -json` says of one package.
type listed struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	ImportMap  map[string]string
	Module     *struct{ GoVersion string }
	Error      *struct{ Err string }
}

// load type-checks the packages that patterns name (relative to the module
// root) and everything they import, for one GOOS, entirely from source:
// `go list -deps` only finds the files, so nothing is compiled and no build
// cache matters (the darwin standard library costs minutes to compile cold,
// seconds to type-check). Outside the module only declarations are
// checked (IgnoreFuncBodies): a guard needs their types, not their code.
func load(goos, goarch string, patterns ...string) (*tree, error) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return nil, err
	}
	args := append([]string{"list", "-e", "-deps", "-json=ImportPath,Dir,GoFiles,ImportMap,Module,Error"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v: %s", err, stderr.Bytes())
	}
	var all []*listed
	byPath := map[string]*listed{}
	for dec := json.NewDecoder(bytes.NewReader(stdout)); ; {
		var l listed
		if err := dec.Decode(&l); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, err
		}
		all = append(all, &l)
		byPath[l.ImportPath] = &l
	}

	t := &tree{goos: goos, fset: token.NewFileSet()}
	checked := map[string]*types.Package{"unsafe": types.Unsafe}
	sizes := types.SizesFor("gc", goarch)
	for _, l := range all { // dependencies come first
		if l.ImportPath == "unsafe" {
			continue
		}
		if l.Error != nil {
			return nil, fmt.Errorf("go list %s: %s", l.ImportPath, l.Error.Err)
		}
		own := inModule(l.ImportPath)
		mode := parser.SkipObjectResolution
		if own {
			mode |= parser.ParseComments // the testdata's "want" comments
		}
		var files []*ast.File
		for _, name := range l.GoFiles {
			f, err := parser.ParseFile(t.fset, filepath.Join(l.Dir, name), nil, mode)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		var firstErr error
		conf := types.Config{
			Importer: importerFunc(func(path string) (*types.Package, error) {
				if p, ok := l.ImportMap[path]; ok {
					path = p
				}
				if p, ok := checked[path]; ok {
					return p, nil
				}
				return nil, fmt.Errorf("%s imports %s, not checked before it", l.ImportPath, path)
			}),
			Sizes:            sizes,
			IgnoreFuncBodies: !own,
			Error: func(err error) {
				if firstErr == nil {
					firstErr = err
				}
			},
		}
		if own && l.Module != nil && l.Module.GoVersion != "" {
			conf.GoVersion = "go" + l.Module.GoVersion
		}
		var info *types.Info
		if own {
			info = &types.Info{
				Types:      map[ast.Expr]types.TypeAndValue{},
				Defs:       map[*ast.Ident]types.Object{},
				Uses:       map[*ast.Ident]types.Object{},
				Implicits:  map[ast.Node]types.Object{},
				Selections: map[*ast.SelectorExpr]*types.Selection{},
			}
		}
		tp, _ := conf.Check(l.ImportPath, t.fset, files, info)
		// Outside the module an error is only a declaration go/types reads
		// differently from the compiler (the runtime's); the types stand.
		if own && firstErr != nil {
			return nil, fmt.Errorf("type-checking %s: %v", l.ImportPath, firstErr)
		}
		checked[l.ImportPath] = tp
		if own {
			t.pkgs = append(t.pkgs, &pkg{fset: t.fset, path: l.ImportPath, files: files, types: tp, info: info})
		}
	}
	return t, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// The trees are the host's and darwin's: the program ships for both, and
// darwin's own files (the process table read through sysctl and lsof) are
// compiled by no test here otherwise.
var (
	hostGOOS, hostGOARCH = runtime.GOOS, runtime.GOARCH
	targets              = [][2]string{{hostGOOS, hostGOARCH}, {"darwin", "arm64"}}
)

var (
	programOnce  sync.Once
	programTrees []*tree
	programErr   error
)

// programPackages lists the module's packages that the guards read: those
// of the program, cmd/ and internal/, but the test harness (internal/testenv)
// and this package of tests. The benchmark harness (bench/) is not the
// program either.
func programPackages() ([]string, error) {
	cmd := exec.Command("go", "list", "./cmd/...", "./internal/...")
	cmd.Dir = filepath.Join("..", "..")
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list ./...: %v", err)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(b)) {
		if p != modulePath+"/internal/testenv" && p != modulePath+"/internal/guard" {
			pkgs = append(pkgs, p)
		}
	}
	return pkgs, nil
}

// testdataDir holds the guards' own inputs, packages no build sees.
const testdataDir = modulePath + "/internal/guard/testdata/"

// programs loads the program's trees once per test binary, for all the
// guards (a few seconds a tree); the host's holds the testdata packages
// too, which import nothing of the program and are read apart from it.
func programs(t *testing.T) []*tree {
	t.Helper()
	programOnce.Do(func() {
		pkgs, err := programPackages()
		if err != nil {
			programErr = err
			return
		}
		ts := targets
		if hostGOOS == "darwin" {
			ts = ts[:1]
		}
		trees := make([]*tree, len(ts))
		errs := make([]error, len(ts))
		var wg sync.WaitGroup
		for i, target := range ts {
			patterns := pkgs
			if i == 0 {
				patterns = append(patterns, "./internal/guard/testdata/raw", "./internal/guard/testdata/git", "./internal/guard/testdata/writes")
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				trees[i], errs[i] = load(target[0], target[1], patterns...)
			}()
		}
		wg.Wait()
		programTrees, programErr = trees, errors.Join(errs...)
	})
	if programErr != nil {
		t.Fatal(programErr)
	}
	for _, tr := range programTrees {
		if n := len(tr.program()); n < 20 {
			t.Fatalf("loaded only %d packages of the module for %s: the load missed the source tree", n, tr.goos)
		}
	}
	return programTrees
}

// program is the tree's packages of the program, without the testdata.
func (tr *tree) program() []*pkg {
	var ps []*pkg
	for _, p := range tr.pkgs {
		if !strings.HasPrefix(p.path, testdataDir) {
			ps = append(ps, p)
		}
	}
	return ps
}

// testdata is the testdata package name, from the host's tree.
func testdata(t *testing.T, name string) *pkg {
	t.Helper()
	for _, p := range programs(t)[0].pkgs {
		if p.path == testdataDir+name {
			return p
		}
	}
	t.Fatalf("no testdata package %s", name)
	return nil
}
