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
