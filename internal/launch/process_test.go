package launch

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/claude-account/claude-account/internal/testenv"
)

// TestRunSignalBeforeStart: a signal that would have ended the launcher
// while the launch was prepared ends it once Run is reached, without
// starting Claude; a window size change before the start does not.
func TestRunSignalBeforeStart(t *testing.T) {
	sigs := CatchSignals()
	defer sigs.Stop()
	<-sigs.ready
	for _, sig := range []syscall.Signal{syscall.SIGWINCH, syscall.SIGUSR1} {
		if err := syscall.Kill(os.Getpid(), sig); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(testenv.Patience); len(sigs.ch) < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the signals did not arrive within %v", testenv.Patience)
		}
	}
	started := false
	st, err := Run(Spec{Path: "/bin/true", Signals: sigs, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Started: func(int) { started = true }})
	if err != nil || started || st != (Status{Signal: syscall.SIGUSR1, Stopped: true}) {
		t.Fatalf("Run = %+v, %v, started %v; want the launch stopped by SIGUSR1, Claude not started", st, err, started)
	}
	// Nothing pending now: Claude starts.
	st, err = Run(Spec{Path: "/bin/true", Signals: sigs, Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Started: func(int) { started = true }})
	if err != nil || !started || st != (Status{}) {
		t.Fatalf("Run = %+v, %v, started %v; want /bin/true run, exit 0", st, err, started)
	}
}

// TestPendingDoesNotWait: Claude's start does not wait for the handlers to
// be in. A signal already caught still stops the launch; none caught, with
// the handlers still being installed, lets Claude start (a signal whose
// handler is not in yet ends the launcher by itself).
func TestPendingDoesNotWait(t *testing.T) {
	s := &Signals{ch: make(chan os.Signal, 4), ready: make(chan struct{})} // never ready
	got := make(chan syscall.Signal, 2)
	go func() {
		got <- s.pending()
		s.ch <- syscall.SIGWINCH
		s.ch <- syscall.SIGTERM
		got <- s.pending()
	}()
	for _, want := range []syscall.Signal{0, syscall.SIGTERM} {
		select {
		case sig := <-got:
			if sig != want {
				t.Fatalf("pending() = %v, want %v", sig, want)
			}
		case <-time.After(testenv.Patience):
			t.Fatalf("pending() waited %v for the handlers", testenv.Patience)
		}
	}
}
