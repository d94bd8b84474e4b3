package launch

// Claude runs as a child that behaves as if the user had started it
// directly: same terminal, signals delivered once, exit status passed
// through. The launcher stays the parent so that it keeps the instance lock
// for Claude's whole life and can do the after-exit pass.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	goruntime "runtime"
	"syscall"
	"unsafe"
)

// Spec is what to start.
type Spec struct {
	Path   string
	Args   []string // without argv[0]
	Env    []string
	Dir    string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Started, if set, is called with Claude's PID once it runs.
	Started func(pid int)
	// Signals, if set, are the launcher's handlers, caught since before the
	// launch was prepared (CatchSignals); Run otherwise catches its own.
	Signals *Signals
}

// Status is how Claude ended.
type Status struct {
	Code   int            // exit code when Signal is 0
	Signal syscall.Signal // the signal that killed Claude, or 0
	// Stopped: a signal came before Claude started (Signal), which was
	// then not started.
	Stopped bool
}

// forwarded are the signals a user or a supervisor may send to the launcher.
var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
	syscall.SIGWINCH, syscall.SIGUSR1, syscall.SIGUSR2}

// Signals are the launcher's handlers for the signals a user or a
// supervisor may send it (forwarded). Before Claude starts, one that would
// have ended the launcher still ends the launch, once what is being written
// is written (Run); while Claude runs, Run forwards them; after Claude
// exits, they are dropped until Stop: the milliseconds after Claude exits
// record what the session changed (servers, trust, the account's keys), and
// a key pressed twice too often must not cut them short.
//
// The handlers are installed in the background: os/signal enables each
// signal with a round trip to a thread of its own (7 of them, 0.3 to 0.8 ms
// on 2 shared cores, measured by go run ./bench), which then overlaps the
// launch's preparation instead of delaying Claude's start. Nothing waits for
// them before Claude starts (pending): until a signal's handler is in, that
// signal still ends the launcher, as it would any program.
type Signals struct {
	ch    chan os.Signal
	ready chan struct{}
}

// CatchSignals starts catching the launcher's signals (Signals).
func CatchSignals() *Signals {
	s := &Signals{ch: make(chan os.Signal, 16), ready: make(chan struct{})}
	go func() {
		signal.Notify(s.ch, forwarded...)
		close(s.ready)
	}()
	return s
}

// signals are the workspace's handlers, caught now if the command has not.
func (w *Workspace) signals() *Signals {
	if w.Signals == nil {
		w.Signals = CatchSignals()
	}
	return w.Signals
}

// pending returns a signal that came before Claude started and would have
// ended the launcher then (every forwarded one but SIGWINCH), or 0. It does
// not wait for the handlers: a signal caught is in s.ch, and one whose
// handler was not in yet ended the launcher where it came.
func (s *Signals) pending() syscall.Signal {
	for {
		select {
		case sig := <-s.ch:
			if sig != syscall.SIGWINCH {
				return sig.(syscall.Signal)
			}
		default:
			return 0
		}
	}
}

// Stop uninstalls the handlers.
func (s *Signals) Stop() {
	<-s.ready
	signal.Stop(s.ch)
}

// Run starts Claude and waits for it. Claude shares our process group, so the
// terminal's own signals (Ctrl-C, Ctrl-\, window size) and job control (Ctrl-Z,
// fg) reach it directly; the launcher forwards only what was sent to it alone,
// so Claude never sees one Ctrl-C twice (it would take that as "exit"). A
// signal that came before Claude started ends the launch instead: Claude is
// not started, and the Status says the signal, as if Claude had died by it.
func Run(s Spec) (Status, error) {
	sigs := s.Signals
	if sigs == nil {
		sigs = CatchSignals()
		defer sigs.Stop()
	}
	if sig := sigs.pending(); sig != 0 {
		return Status{Signal: sig, Stopped: true}, nil
	}
	if deathSignal() == nil {
		// Where the kernel cannot tell Claude that the launcher died
		// (macOS), a signal that ended the launcher between the fork and
		// its handlers would leave Claude running alone: wait for them.
		<-sigs.ready
	}
	// Claude is told to stop if the launcher dies (see deathSignal): the
	// kernel sends that signal when the forking thread ends, so this
	// goroutine keeps its thread from the fork to the wait.
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	pid, wait, err := start(s)
	if errors.Is(err, fs.ErrNotExist) && executable(s.Path) == nil {
		// The file is there: what is missing is the interpreter its #! names.
		return Status{}, fmt.Errorf("%s could not be started: the interpreter on its #! line is missing; reinstall Claude Code", s.Path)
	}
	if err != nil {
		return Status{}, fmt.Errorf("starting %s: %w; check that it is Claude Code and runs on its own", s.Path, err)
	}
	if s.Started != nil {
		s.Started(pid)
	}
	// Forwarding starts once the handlers are in; Claude is still starting,
	// so this wait costs nothing. A signal that came between the fork and
	// them ended the launcher, and the kernel ended Claude with it
	// (deathSignal), as if the signal had come just before the fork.
	<-sigs.ready
	done := make(chan struct{})
	go func() {
		for {
			select {
			case sig := <-sigs.ch:
				if !fromTerminal(sig.(syscall.Signal)) {
					_ = syscall.Kill(pid, sig.(syscall.Signal))
				}
			case <-done:
				return
			}
		}
	}()
	ws, err := wait()
	close(done)
	if err != nil {
		return Status{}, err
	}
	if ws.Signaled() {
		return Status{Signal: ws.Signal()}, nil
	}
	return Status{Code: ws.ExitStatus()}, nil
}

// start forks Claude. With the terminal's own files (the launcher's case) it
// uses syscall.ForkExec directly: os/exec would first probe for pidfd support
// by forking a throwaway child, a cost paid on every launch. Anything else
// (tests writing to buffers) goes through os/exec, which copies.
func start(s Spec) (int, func() (syscall.WaitStatus, error), error) {
	files := make([]uintptr, 0, 3)
	for _, f := range []any{s.Stdin, s.Stdout, s.Stderr} {
		if osf, ok := f.(*os.File); ok && osf != nil {
			files = append(files, osf.Fd())
		}
	}
	if len(files) == 3 {
		pid, err := syscall.ForkExec(s.Path, append([]string{s.Path}, s.Args...),
			&syscall.ProcAttr{Dir: s.Dir, Env: s.Env, Files: files, Sys: deathSignal()})
		if err != nil {
			return 0, nil, err
		}
		return pid, func() (syscall.WaitStatus, error) {
			var ws syscall.WaitStatus
			for {
				_, err := syscall.Wait4(pid, &ws, 0, nil)
				if err != syscall.EINTR {
					return ws, err
				}
			}
		}, nil
	}
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Env, cmd.Dir = s.Env, s.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = s.Stdin, s.Stdout, s.Stderr
	cmd.SysProcAttr = deathSignal()
	if err := cmd.Start(); err != nil {
		return 0, nil, err
	}
	return cmd.Process.Pid, func() (syscall.WaitStatus, error) {
		err := cmd.Wait()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			return 0, err
		}
		return cmd.ProcessState.Sys().(syscall.WaitStatus), nil
	}, nil
}

// fromTerminal reports whether sig is one the terminal sends to the whole
// foreground process group and we are in that group: then Claude already has it.
func fromTerminal(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGINT, syscall.SIGQUIT, syscall.SIGWINCH:
	default:
		return false
	}
	for _, fd := range []uintptr{0, 1, 2} {
		var pgrp int32
		_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(syscall.TIOCGPGRP), uintptr(unsafe.Pointer(&pgrp)))
		if errno == 0 {
			return int(pgrp) == syscall.Getpgrp()
		}
	}
	return false
}

// Reraise ends this process the way Claude ended: killed by the same signal,
// so shells and supervisors see exactly what they would have seen. It returns
// only for a signal whose default action does not end a process; the caller
// then exits 128+n, as a shell reports a death by signal.
//
// signal.Reset and kill(2) are not enough: the Go runtime keeps its own
// handler for SIGSEGV, SIGBUS, SIGQUIT and SIGABRT (a traceback and exit 2),
// and a signal sent with kill arrives at some later moment, after the caller
// may already have exited 128+n. dieBy sets the kernel's default action,
// unblocks the signal and sends it to this very thread, so it is delivered
// before the system call returns.
func Reraise(sig syscall.Signal) {
	signal.Reset(sig)
	dieBy(sig)
}
