package guard

import (
	"go/ast"
	"go/types"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestOnlyGitcmdStartsGit fails when code of the program other than package
// gitcmd starts git itself: such a git would run what a repository's
// configuration names (gitcmd.Git turns that off). It reads what the code
// does, through the types, not how it is spelt:
//
//   - What starts a program: os/exec's Command and CommandContext, an
//     exec.Cmd whose Path is set (in a literal or by assignment),
//     os.StartProcess, syscall's Exec, ForkExec and StartProcess, and
//     x/sys/unix's Exec; and exec.LookPath, which finds one. These are
//     the functions themselves, however the import is named, so an alias
//     of the package changes nothing; taking one as a value (start :=
//     exec.Command) is a finding, as its program could not be read.
//   - The program: its value as go/types computes it, so a constant of any
//     name, or "/usr/bin/" + gitName, is the string it is. A constant
//     program is git when its last path element is "git" (any case: macOS's
//     file system ignores it; ".exe" dropped). A program that is no
//     constant (a path found at run time) is a finding wherever no
//     allowance below names its function, with the reason it cannot be git.
//   - Its arguments: a constant argument that is git (env git …, xargs
//     git) or a shell script that runs git (sh -c "git status") is a
//     finding too, and so is a shell given any word that is no constant
//     (its script is a program no one can read here), unless allowed.
//
// Package gitcmd is where git is started, so nothing in it is a finding.
// Tests and the test harness (internal/testenv, which makes the fixtures)
// are not the program and are not read. TestGitStartsCatchesBypasses runs
// it on testdata/git, the bypasses a spelling check let through.
func TestOnlyGitcmdStartsGit(t *testing.T) {
	var found []finding
	home := 0
	for _, tr := range programs(t) {
		for _, f := range gitStarts(tr.program()) {
			if f.pkg == modulePath+"/internal/gitcmd" {
				home++
				continue
			}
			found = append(found, f.finding)
		}
	}
	if home == 0 {
		t.Errorf("found no git start in package gitcmd itself: the checker no longer sees exec.CommandContext(ctx, \"git\", …)")
	}
	for _, f := range allowed(t, dedup(found), gitAllowed) {
		t.Errorf("%s\n\tstarts a program that is or may be git; run git through gitcmd.Git", f)
	}
}

// gitAllowed are the programs started from a value found at run time, by
// function and call, each with why it is not git.
var gitAllowed = map[string]string{
	"internal/launch.start syscall.ForkExec":               "Claude Code, the binary the launcher resolved (launch.FindClaude), the launcher's whole purpose",
	"internal/launch.start os/exec.Command":                "the same, when Claude's streams are not files (tests writing to buffers)",
	"internal/claudever.askVersion os/exec.CommandContext": "`claude --version` of the Claude Code binary found on PATH or configured",
	"internal/claudeproc.lsofCwds os/exec.CommandContext":  "Apple's /usr/sbin/lsof, else lsof found on PATH by that name (darwin only)",
	"(*internal/cli.JumpCmd).Run os/exec.Command":          "tmux, found on PATH by that name just before",
	"internal/cli.attach os/exec.Command":                  "tmux, found on PATH by that name just before",
	"internal/cli.fleetCommand os/exec.Command":            "the account's Claude Code binary (launch.FindClaude), for Claude's own attach or stop of a background session",
	"internal/cli.runOwnStatusLine os/exec.Command":        "the statusLine command of the account's own settings.json, run with sh -c as Claude Code runs it: the user's program, which Claude would have run the same way",
	"internal/cli.page os/exec.Command":                    "the user's pager ($GIT_PAGER, else $PAGER, else less) for worktree diff on a terminal, run with sh -c as git runs it: the user's program, fed text, never git's",
	"internal/mcpenv.Exec syscall.Exec":                    "an MCP server's command, declared by the account (mcp-env), which Claude would have started itself",
	"internal/notify.Start os/exec.Command":                "the notifier notify.Command chose: osascript or notify-send, found on PATH by that name",
}

// TestGitStartsCatchesBypasses runs the checker on testdata/git, whose
// every `// want` line starts git in a form the syntactic check (which
// looked for a "git" literal in exec.Command's argument) let through, or
// one it caught; the lines without one start no git.
func TestGitStartsCatchesBypasses(t *testing.T) {
	p := testdata(t, "git")
	var found []finding
	for _, f := range gitStarts([]*pkg{p}) {
		t.Log(f.finding)
		found = append(found, f.finding)
	}
	left := allowed(t, found, map[string]string{
		"internal/guard/testdata/git.allowed os/exec.Command": "the allowance of a program found at run time",
	})
	expectWants(t, p, left)
}

type gitFinding struct {
	finding
	pkg string
}

// starter is where a program-starting function takes its program.
type starter struct {
	pkg, name string
	prog      int  // the index of the program argument
	lookOnly  bool // finds a program, starts none: only a constant git counts
}

var starters = []starter{
	{"os/exec", "Command", 0, false},
	{"os/exec", "CommandContext", 1, false},
	{"os/exec", "LookPath", 0, true},
	{"os", "StartProcess", 0, false},
	{"syscall", "Exec", 0, false},
	{"syscall", "ForkExec", 0, false},
	{"syscall", "StartProcess", 0, false},
	{"golang.org/x/sys/unix", "Exec", 0, false},
}

func starterOf(fn *types.Func) (starter, bool) {
	for _, s := range starters {
		if isFunc(fn, s.pkg, s.name) {
			return s, true
		}
	}
	return starter{}, false
}

// isGit reports whether the program name s is git.
func isGit(s string) bool {
	base := strings.ToLower(path.Base(strings.ReplaceAll(s, `\`, "/")))
	return strings.TrimSuffix(base, ".exe") == "git"
}

// shells are the programs whose -c argument is a script.
var shells = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "fish": true}

// gitWord finds git as a command in a shell script.
var gitWord = regexp.MustCompile(`(?i)(^|[\s;&|(` + "`" + `/])git(\.exe)?($|[\s;&|)])`)

// gitStarts finds the calls in pkgs that start, or may start, git.
func gitStarts(pkgs []*pkg) []gitFinding {
	var found []gitFinding
	called := map[*ast.Ident]bool{}
	walk(pkgs, func(p *pkg, _ ast.Decl, _ *ast.FuncDecl, n ast.Node) {
		if call, ok := n.(*ast.CallExpr); ok {
			switch f := calleeExpr(p.info, call).(type) {
			case *ast.Ident:
				called[f] = true
			case *ast.SelectorExpr:
				called[f.Sel] = true
			}
		}
	})
	walk(pkgs, func(p *pkg, _ ast.Decl, decl *ast.FuncDecl, n ast.Node) {
		info := p.info
		add := func(at ast.Node, what, why string) {
			found = append(found, gitFinding{finding{pos: p.fset.Position(at.Pos()), fn: funcName(p, decl), what: what, why: why}, p.path})
		}
		// check judges the program prog and the arguments args given to
		// what.
		check := func(at ast.Node, what string, prog ast.Expr, args []ast.Expr, lookOnly bool) {
			s, ok := constString(info, prog)
			switch {
			case !ok && !lookOnly:
				add(at, what, "starts a program that is no constant")
				return
			case ok && isGit(s):
				add(at, what, "starts git")
				return
			case !ok:
				return
			}
			shell := shells[strings.ToLower(path.Base(s))]
			for _, a := range args {
				v, ok := constString(info, a)
				switch {
				case ok && (isGit(v) || shell && gitWord.MatchString(v)):
					add(at, what, "runs git through "+s)
					return
				case !ok && shell && !lookOnly:
					add(at, what, "runs a shell on words that are no constant")
					return
				}
			}
		}
		switch n := n.(type) {
		case *ast.Ident:
			fn, ok := info.Uses[n].(*types.Func)
			if !ok || called[n] {
				return
			}
			if s, ok := starterOf(fn); ok && !s.lookOnly {
				add(n, shortName(fn.FullName()), "taken as a value: what it starts cannot be read")
			}
		case *ast.CallExpr:
			fn := staticCallee(info, n)
			s, ok := starterOf(fn)
			if !ok || len(n.Args) <= s.prog {
				return
			}
			check(n, shortName(fn.FullName()), n.Args[s.prog], n.Args[s.prog+1:], s.lookOnly)
		case *ast.CompositeLit:
			if !isExecCmd(typeOf(info, n)) {
				return
			}
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok && key.Name == "Path" {
						check(n, "os/exec.Cmd.Path", kv.Value, nil, false)
					}
				}
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				sel, ok := unparen(l).(*ast.SelectorExpr)
				if !ok || i >= len(n.Rhs) {
					continue
				}
				if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal && s.Obj().Name() == "Path" && isExecCmd(s.Recv()) {
					check(n, "os/exec.Cmd.Path", n.Rhs[i], nil, false)
				}
			}
		}
	})
	return found
}

// isExecCmd reports whether t is os/exec.Cmd or a pointer to one.
func isExecCmd(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os/exec" && n.Obj().Name() == "Cmd"
}
