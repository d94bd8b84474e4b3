package guard

import (
	"go/ast"
	"go/token"
	"go/types"
	"testing"
)

// TestNoRawWrites fails on any write to a terminal that does not go through
// package out, which makes every line inert before it reaches one. It reads
// what the code does, through the types, not how it is spelt:
//
//   - The streams: os.Stdout and os.Stderr (the objects, however the import
//     is named), a file opened on /dev/tty, /dev/stdout, /dev/stderr or
//     /dev/fd/1 and 2, and os.NewFile(1 or 2). Any use of one is a finding,
//     but where an allowance below names it (cli.Main hands them to Deps).
//   - Where a stream's value goes: into every variable, struct field,
//     parameter, result, slice or map it is assigned, passed, returned or
//     sent to, across functions and packages, until nothing more changes. A
//     field or a variable is tainted as an object, not per value: once
//     cli.Deps.Stdout holds os.Stdout, every d.Stdout is the terminal, and
//     `w := d.Stdout` makes w the terminal too. What code outside the module
//     returns from a call given a stream (bufio.NewWriter(w)) is a stream.
//     A value whose type cannot hold a file (a string, a number, an error)
//     carries none: the name of a stream opens no terminal.
//   - A write: a stream handed to code outside the module (or to a call of
//     a function value or an interface method) as an io.Writer, a
//     StringWriter or an *os.File (fmt.Fprint*, io.WriteString, io.Copy,
//     json.NewEncoder, tabwriter.NewWriter, log.New, kong.Writers …); a
//     Write, WriteString, WriteByte, WriteRune or ReadFrom on a stream,
//     called or taken as a method value; and what always writes to one
//     (fmt.Print*, the log package's Print*, Fatal* and Panic*, print and
//     println, syscall.Write and unix.Write to fd 1 or 2), called or taken
//     as a value.
//
// Package out is where writes belong, so nothing in it is a finding. Tests
// and the test harness (internal/testenv) are not the program and are not
// read. Handing a stream to a child process (cmd.Stdout = d.Stdout) is no
// write of ours: that is Claude's output, or a status line command's.
//
// What it cannot see: a stream that reaches a module function only through
// a function value or an interface (its parameters are not tainted; the
// call itself is flagged when it hands the stream over as a writer), and
// unsafe or reflect. TestRawWritesCatchesBypasses runs it on
// testdata/raw, the bypasses a spelling check let through.
func TestNoRawWrites(t *testing.T) {
	var found []finding
	for _, tr := range programs(t) {
		fs, fl := rawWrites(tr.program(), rawHome)
		found = append(found, fs...)
		// The flow must reach the commands' streams, or it would see none
		// of their writes and pass for that.
		if !fl.reached(modulePath+"/internal/cli", "Deps", "Stdout") || !fl.reached(modulePath+"/internal/out", "Printer", "w") {
			t.Errorf("%s: the flow from os.Stdout did not reach cli.Deps.Stdout and out.Printer.w", tr.goos)
		}
	}
	for _, f := range allowed(t, dedup(found), rawAllowed) {
		t.Errorf("%s\n\twrites to a terminal without package out: print it with out.To(w).Line/Linef/Table/JSON", f)
	}
}

// rawHome is the one package that writes to a terminal.
var rawHome = map[string]bool{modulePath + "/internal/out": true}

// rawAllowed are the deliberate uses of a stream, by function and what.
var rawAllowed = map[string]string{
	"internal/cli.Main os.Stdout":                              "Main hands the process's streams to Deps: the one place they enter the program",
	"internal/cli.Main os.Stderr":                              "the same; and its one line before Deps exists (the directory is gone) goes through out.To(os.Stderr)",
	"internal/cli.dispatch github.com/alecthomas/kong.Writers": "kong prints --help to d.Stdout: the text of the command tree's own struct tags, no value from a repository; kong's parse errors come back as errors and are printed through out",
}

// TestRawWritesCatchesBypasses runs the checker on testdata/raw, whose
// every `// want` line is a raw write that the syntactic TestNoRawWrites
// (which looked for the names Stdout and Stderr) let through, or one it
// caught; the lines without one are not writes to a terminal.
func TestRawWritesCatchesBypasses(t *testing.T) {
	p := testdata(t, "raw")
	found, _ := rawWrites([]*pkg{p}, nil)
	for _, f := range found {
		t.Log(f)
	}
	left := allowed(t, found, map[string]string{
		"internal/guard/testdata/raw.Main os.Stdout": "its wiring, as cli.Main is the program's",
		"internal/guard/testdata/raw.Main os.Stderr": "the same",
	})
	expectWants(t, p, left)
}

// rawWrites finds the raw writes to a terminal in pkgs (see TestNoRawWrites).
func rawWrites(pkgs []*pkg, home map[string]bool) ([]finding, *flow) {
	fl := &flow{osFile: findOSFile(pkgs), tainted: map[types.Object]bool{}, returns: map[*types.Func]bool{}, lits: map[*ast.FuncLit]bool{}}
	for fl.changed = true; fl.changed; {
		fl.changed = false
		walk(pkgs, fl.propagate)
	}
	var found []finding
	walk(pkgs, func(p *pkg, _ ast.Decl, decl *ast.FuncDecl, n ast.Node) {
		if home[p.path] {
			return
		}
		add := func(at ast.Node, what, why string) {
			found = append(found, finding{pos: p.fset.Position(at.Pos()), fn: funcName(p, decl), what: what, why: why})
		}
		fl.info = p.info
		info := p.info
		switch n := n.(type) {
		case *ast.Ident:
			if obj := info.Uses[n]; isStdStream(obj) {
				add(n, obj.Pkg().Path()+"."+obj.Name(), "a use of the terminal")
			} else if fn, ok := obj.(*types.Func); ok && alwaysWrites(fn) && !fl.called[n] {
				add(n, shortName(fn.FullName()), "taken as a value: it writes to the terminal wherever it is called")
			}
		case *ast.SelectorExpr:
			sel := info.Selections[n]
			if sel == nil || sel.Kind() == types.FieldVal || !writeMethods[sel.Obj().Name()] {
				return
			}
			fn := sel.Obj().(*types.Func)
			if readHere(fn) {
				return // its body is read like any other
			}
			if sel.Kind() == types.MethodVal && fl.stream(n.X) {
				add(n, shortName(fn.FullName()), "a write on the terminal")
			}
		case *ast.CallExpr:
			fn := staticCallee(info, n)
			if fn != nil && alwaysWrites(fn) {
				add(n, shortName(fn.FullName()), "writes to the terminal")
				return
			}
			if b, ok := info.Uses[identOf(calleeExpr(info, n))].(*types.Builtin); ok && (b.Name() == "print" || b.Name() == "println") {
				add(n, b.Name(), "writes to standard error")
				return
			}
			if what, ok := opensTerminal(info, fn, n); ok {
				add(n, what, "opens the terminal")
				return
			}
			if isFunc(fn, "syscall", "Write") || isFunc(fn, "golang.org/x/sys/unix", "Write") {
				if fd, ok := constInt(info, n.Args[0]); ok && (fd == 1 || fd == 2) {
					add(n, shortName(fn.FullName()), "writes to file descriptor 1 or 2")
				}
				return
			}
			// A method expression, (*os.File).Write(f, b): the receiver is
			// the first argument.
			if sel, ok := calleeExpr(info, n).(*ast.SelectorExpr); ok {
				if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr && writeMethods[s.Obj().Name()] && len(n.Args) > 0 && fl.stream(n.Args[0]) {
					add(n, shortName(s.Obj().(*types.Func).FullName()), "a write on the terminal")
					return
				}
			}
			// A stream handed to code that is not read here, as a writer.
			if readHere(fn) {
				return
			}
			sig, _ := info.Types[n.Fun].Type.(*types.Signature)
			if sig == nil {
				return // a conversion
			}
			for i, a := range n.Args {
				if fl.stream(a) && writerParam(sig, i, n.Ellipsis.IsValid()) {
					what := "a call of a function value"
					if fn != nil {
						what = shortName(fn.FullName())
					}
					add(n, what, "hands the terminal to code that writes to it")
					break
				}
			}
		}
	})
	return found, fl
}

// reached reports whether the flow tainted the field of the struct type
// pkg.typ.
func (fl *flow) reached(pkg, typ, field string) bool {
	for obj := range fl.tainted {
		v, ok := obj.(*types.Var)
		if !ok || !v.IsField() || v.Name() != field || v.Pkg() == nil || v.Pkg().Path() != pkg {
			continue
		}
		if tn, ok := v.Pkg().Scope().Lookup(typ).(*types.TypeName); ok {
			if st, ok := tn.Type().Underlying().(*types.Struct); ok {
				for i := 0; i < st.NumFields(); i++ {
					if st.Field(i) == v {
						return true
					}
				}
			}
		}
	}
	return false
}

// canHold reports whether a value of type t may be, or hold, a stream:
// not a string, number or bool, and not an interface that *os.File does
// not satisfy (an error, a fmt.Stringer). Without this, a string made from
// a stream (its name) would make every file opened by that name one.
func (fl *flow) canHold(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() == types.UntypedNil || u.Kind() == types.UnsafePointer
	case *types.Interface:
		return u.NumMethods() == 0 || fl.osFile == nil || types.Implements(fl.osFile, u)
	}
	return true
}

// findOSFile is *os.File as the packages see it (Implements compares
// method signatures by their types' identity, so it must be this load's).
func findOSFile(pkgs []*pkg) types.Type {
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) types.Type
	find = func(p *types.Package) types.Type {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == "os" {
			return types.NewPointer(p.Scope().Lookup("File").Type())
		}
		for _, q := range p.Imports() {
			if t := find(q); t != nil {
				return t
			}
		}
		return nil
	}
	for _, p := range pkgs {
		if t := find(p.types); t != nil {
			return t
		}
	}
	return nil
}

// writeMethods are the methods that write to their receiver.
var writeMethods = map[string]bool{"Write": true, "WriteString": true, "WriteByte": true, "WriteRune": true, "ReadFrom": true}

// isStdStream reports whether obj is os.Stdout or os.Stderr.
func isStdStream(obj types.Object) bool {
	v, ok := obj.(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "os" && v.Parent() == v.Pkg().Scope() &&
		(v.Name() == "Stdout" || v.Name() == "Stderr")
}

// alwaysWrites reports whether fn writes to standard output or error
// whatever it is given.
func alwaysWrites(fn *types.Func) bool {
	return isFunc(fn, "fmt", "Print", "Printf", "Println") ||
		isFunc(fn, "log", "Print", "Printf", "Println", "Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln", "Output")
}

// terminalFiles are the file names that open a terminal.
var terminalFiles = map[string]bool{"/dev/tty": true, "/dev/stdout": true, "/dev/stderr": true, "/dev/fd/1": true, "/dev/fd/2": true, "/proc/self/fd/1": true, "/proc/self/fd/2": true}

// opensTerminal reports whether call opens a terminal as a file:
// os.OpenFile("/dev/tty", …), os.NewFile(1, …).
func opensTerminal(info *types.Info, fn *types.Func, call *ast.CallExpr) (string, bool) {
	if len(call.Args) == 0 {
		return "", false
	}
	if isFunc(fn, "os", "Open", "OpenFile", "Create") {
		if s, ok := constString(info, call.Args[0]); ok && terminalFiles[s] {
			return fn.FullName() + "(" + s + ")", true
		}
	}
	if isFunc(fn, "os", "NewFile") {
		if fd, ok := constInt(info, call.Args[0]); ok && (fd == 1 || fd == 2) {
			return fn.FullName(), true
		}
	}
	return "", false
}

// writerParam reports whether the i-th argument of a call of sig goes to a
// parameter that can be written to: an interface with a Write or
// WriteString method (io.Writer, io.ReadWriter, io.StringWriter …) or an
// *os.File.
func writerParam(sig *types.Signature, i int, spread bool) bool {
	params := sig.Params()
	if params.Len() == 0 {
		return false
	}
	var t types.Type
	if sig.Variadic() && i >= params.Len()-1 {
		t = params.At(params.Len() - 1).Type()
		if !spread {
			t = t.(*types.Slice).Elem()
		}
	} else if i < params.Len() {
		t = params.At(i).Type()
	} else {
		return false
	}
	if s, ok := t.Underlying().(*types.Slice); ok && spread {
		t = s.Elem()
	}
	if ptr, ok := t.(*types.Pointer); ok {
		if n, ok := ptr.Elem().(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "os" && n.Obj().Name() == "File" {
			return true
		}
	}
	iface, ok := t.Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for i := 0; i < iface.NumMethods(); i++ {
		if n := iface.Method(i).Name(); n == "Write" || n == "WriteString" {
			return true
		}
	}
	return false
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := e.(*ast.Ident)
	return id
}

// A flow follows the terminal's streams through a set of packages: which
// objects (variables, fields, parameters) may hold one, which functions
// may return one. It only grows, and is run until it stops growing.
type flow struct {
	info    *types.Info
	osFile  types.Type
	tainted map[types.Object]bool
	returns map[*types.Func]bool  // module functions that may return a stream
	lits    map[*ast.FuncLit]bool // function literals that may return one
	called  map[*ast.Ident]bool   // identifiers in a call's function position
	changed bool
}

func (fl *flow) taint(obj types.Object) {
	if obj != nil && !fl.tainted[obj] && fl.canHold(obj.Type()) {
		fl.tainted[obj] = true
		fl.changed = true
	}
}

// stream reports whether e may be a terminal stream.
func (fl *flow) stream(e ast.Expr) bool {
	info := fl.info
	if t := info.Types[e].Type; t != nil && !fl.canHold(t) {
		return false
	}
	switch e := unparen(e).(type) {
	case *ast.Ident:
		obj := info.Uses[e]
		if obj == nil {
			obj = info.Defs[e]
		}
		return isStdStream(obj) || fl.tainted[obj]
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			switch sel.Kind() {
			case types.FieldVal:
				return fl.tainted[sel.Obj()]
			case types.MethodVal:
				return fl.stream(e.X) // a method value bound to a stream
			}
			return false
		}
		obj := info.Uses[e.Sel] // pkg.Name
		return isStdStream(obj) || fl.tainted[obj]
	case *ast.StarExpr:
		return fl.stream(e.X)
	case *ast.UnaryExpr:
		return (e.Op == token.AND || e.Op == token.ARROW) && fl.stream(e.X)
	case *ast.TypeAssertExpr:
		return fl.stream(e.X)
	case *ast.IndexExpr:
		return fl.stream(e.X)
	case *ast.SliceExpr:
		return fl.stream(e.X)
	case *ast.KeyValueExpr:
		return fl.stream(e.Value)
	case *ast.CompositeLit:
		for _, el := range e.Elts {
			if fl.stream(el) {
				return true
			}
		}
	case *ast.FuncLit:
		return fl.lits[e]
	case *ast.CallExpr:
		tv := info.Types[e.Fun]
		if tv.IsType() { // a conversion
			return len(e.Args) == 1 && fl.stream(e.Args[0])
		}
		if b, ok := info.Uses[identOf(calleeExpr(info, e))].(*types.Builtin); ok {
			return b.Name() == "append" && fl.anyStream(e.Args)
		}
		fn := staticCallee(info, e)
		if _, ok := opensTerminal(info, fn, e); ok {
			return true
		}
		if readHere(fn) {
			return fl.returns[fn]
		}
		// Code not read here: what it returns may be what it was given.
		if fl.anyStream(e.Args) || fl.stream(e.Fun) {
			return true
		}
		if sel, ok := calleeExpr(info, e).(*ast.SelectorExpr); ok && info.Selections[sel] != nil {
			return fl.stream(sel.X)
		}
	}
	return false
}

func (fl *flow) anyStream(es []ast.Expr) bool {
	for _, e := range es {
		if fl.stream(e) {
			return true
		}
	}
	return false
}

// target is the object an assignment to e stores into: a variable, a
// field, or the variable a pointer, slice or map is read from.
func (fl *flow) target(e ast.Expr) types.Object {
	info := fl.info
	switch e := unparen(e).(type) {
	case *ast.Ident:
		if obj := info.Defs[e]; obj != nil {
			return obj
		}
		return info.Uses[e]
	case *ast.SelectorExpr:
		if sel := info.Selections[e]; sel != nil {
			if sel.Kind() == types.FieldVal {
				return sel.Obj()
			}
			return nil
		}
		return info.Uses[e.Sel]
	case *ast.StarExpr:
		return fl.target(e.X)
	case *ast.IndexExpr:
		return fl.target(e.X)
	}
	return nil
}

// propagate adds what one node lets a stream reach.
func (fl *flow) propagate(p *pkg, top ast.Decl, decl *ast.FuncDecl, n ast.Node) {
	fl.info = p.info
	info := p.info
	if fl.called == nil {
		fl.called = map[*ast.Ident]bool{}
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		if len(n.Lhs) == len(n.Rhs) {
			for i := range n.Lhs {
				if fl.stream(n.Rhs[i]) {
					fl.taint(fl.target(n.Lhs[i]))
				}
			}
		} else if len(n.Rhs) == 1 && fl.stream(n.Rhs[0]) {
			for _, l := range n.Lhs {
				fl.taint(fl.target(l))
			}
		}
	case *ast.ValueSpec:
		if len(n.Names) == len(n.Values) {
			for i := range n.Names {
				if fl.stream(n.Values[i]) {
					fl.taint(info.Defs[n.Names[i]])
				}
			}
		} else if len(n.Values) == 1 && fl.stream(n.Values[0]) {
			for _, name := range n.Names {
				fl.taint(info.Defs[name])
			}
		}
	case *ast.RangeStmt:
		if fl.stream(n.X) {
			if n.Key != nil {
				fl.taint(fl.target(n.Key))
			}
			if n.Value != nil {
				fl.taint(fl.target(n.Value))
			}
		}
	case *ast.TypeSwitchStmt:
		var x ast.Expr
		switch a := n.Assign.(type) {
		case *ast.AssignStmt:
			x = a.Rhs[0].(*ast.TypeAssertExpr).X
		case *ast.ExprStmt:
			x = a.X.(*ast.TypeAssertExpr).X
		}
		if fl.stream(x) {
			for _, c := range n.Body.List {
				fl.taint(info.Implicits[c])
			}
		}
	case *ast.SendStmt:
		if fl.stream(n.Value) {
			fl.taint(fl.target(n.Chan))
		}
	case *ast.CompositeLit:
		t := typeOf(info, n)
		if ptr, ok := t.Underlying().(*types.Pointer); ok {
			t = ptr.Elem() // an element of []*T{{…}}
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return
		}
		for i, el := range n.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if key, ok := kv.Key.(*ast.Ident); ok && fl.stream(kv.Value) {
					fl.taint(info.Uses[key])
				}
			} else if i < st.NumFields() && fl.stream(el) {
				fl.taint(st.Field(i))
			}
		}
	case *ast.FuncDecl, *ast.FuncLit:
		// A named result assigned a stream and returned bare.
		var sig *types.Signature
		if d, ok := n.(*ast.FuncDecl); ok {
			if fn, ok := info.Defs[d.Name].(*types.Func); ok {
				sig = fn.Type().(*types.Signature)
			}
		} else {
			sig, _ = typeOf(info, n.(*ast.FuncLit)).(*types.Signature)
		}
		if sig == nil {
			return
		}
		for i := 0; i < sig.Results().Len(); i++ {
			if fl.tainted[sig.Results().At(i)] {
				if d, ok := n.(*ast.FuncDecl); ok {
					fn := info.Defs[d.Name].(*types.Func)
					if !fl.returns[fn] {
						fl.returns[fn], fl.changed = true, true
					}
				} else if l := n.(*ast.FuncLit); !fl.lits[l] {
					fl.lits[l], fl.changed = true, true
				}
			}
		}
	case *ast.ReturnStmt:
		// Which function: the innermost literal holding it, else decl.
		if fl.anyStream(n.Results) {
			fl.markReturn(p, top, decl, n)
		}
	case *ast.CallExpr:
		if id := identOf(calleeExpr(info, n)); id != nil {
			fl.called[id] = true
		} else if sel, ok := calleeExpr(info, n).(*ast.SelectorExpr); ok {
			fl.called[sel.Sel] = true
		}
		fn := staticCallee(info, n)
		if !readHere(fn) {
			return
		}
		sig := fn.Type().(*types.Signature)
		args := n.Args
		if sel, ok := calleeExpr(info, n).(*ast.SelectorExpr); ok {
			if s := info.Selections[sel]; s != nil {
				switch s.Kind() {
				case types.MethodVal:
					if fl.stream(sel.X) {
						fl.taint(sig.Recv())
					}
				case types.MethodExpr:
					if len(args) > 0 && fl.stream(args[0]) {
						fl.taint(sig.Recv())
					}
					if len(args) > 0 {
						args = args[1:]
					}
				}
			}
		}
		for i, a := range args {
			if !fl.stream(a) {
				continue
			}
			if i >= sig.Params().Len() {
				i = sig.Params().Len() - 1
			}
			fl.taint(sig.Params().At(i))
		}
	}
}

// markReturn records that the function holding ret may return a stream.
func (fl *flow) markReturn(p *pkg, top ast.Decl, decl *ast.FuncDecl, ret *ast.ReturnStmt) {
	var lit *ast.FuncLit
	ast.Inspect(top, func(n ast.Node) bool {
		if l, ok := n.(*ast.FuncLit); ok && l.Pos() <= ret.Pos() && ret.End() <= l.End() {
			lit = l // the innermost, as Inspect goes deeper
		}
		return true
	})
	if lit != nil {
		if !fl.lits[lit] {
			fl.lits[lit] = true
			fl.changed = true
		}
		return
	}
	if decl == nil {
		return
	}
	if fn, ok := p.info.Defs[decl.Name].(*types.Func); ok && !fl.returns[fn] {
		fl.returns[fn] = true
		fl.changed = true
	}
}

func typeOf(info *types.Info, e ast.Expr) types.Type {
	if t := info.Types[e].Type; t != nil {
		return t
	}
	return types.Typ[types.Invalid]
}
