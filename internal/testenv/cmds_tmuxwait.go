package testenv

import (
	"flag"
	"fmt"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// tmuxwait [-J] [-not RE] SOCKET SESSION WANT: wait up to Patience until the
// pane of the tmux SESSION shows WANT (a Go regular expression; the EREs the
// scripts' shell loops used read the same), with -J the lines tmux wrapped
// joined; fail at once when the pane shows NOT. The pane goes to stdout,
// found or not, so a script can check more of it.
//
// It replaces the shell loops scripts carried (capture-pane, grep, sleep 0.1):
// each turn of those forked sh, tmux and grep, a third of a CPU for each
// script waiting on a 2-CPU machine where the real-Claude suite is
// CPU-bound. Here a turn forks tmux alone, and turns come further apart the
// longer the wait (pollEvery): a pane that changes at once is seen at once,
// a Claude that takes 20 s to start costs 40 turns, not 200.
func tmuxwait(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("tmuxwait", flag.ContinueOnError)
	join := fs.Bool("J", false, "join the lines tmux wrapped")
	not := fs.String("not", "", "fail at once when the pane shows this")
	if neg || fs.Parse(args) != nil || fs.NArg() != 3 {
		ts.Fatalf("usage: tmuxwait [-J] [-not RE] SOCKET SESSION WANT")
	}
	sock, session := ts.MkAbs(fs.Arg(0)), fs.Arg(1)
	// (?m): ^ and $ match at each line, as grep matched each line.
	want, err := regexp.Compile("(?m)" + fs.Arg(2))
	ts.Check(err)
	var bad *regexp.Regexp
	if *not != "" {
		bad, err = regexp.Compile("(?m)" + *not)
		ts.Check(err)
	}
	capture := []string{"capture-pane", "-p", "-t", session}
	if *join {
		capture = append(capture, "-J")
	}
	pane, lastErr := "", error(nil)
	start := time.Now()
	for deadline := start.Add(Patience); ; time.Sleep(pollEvery(time.Since(start))) {
		// A failed capture (the session between two panes, say) keeps the
		// last pane and tries again: only the deadline ends the wait.
		if out, err := tmuxAt(sock, capture...); err == nil {
			pane = out
		} else {
			lastErr = err
		}
		switch {
		case bad != nil && bad.MatchString(pane):
			fmt.Fprint(ts.Stdout(), pane)
			ts.Fatalf("pane %s shows %q", session, *not)
		case want.MatchString(pane):
			fmt.Fprint(ts.Stdout(), pane)
			return
		case time.Now().After(deadline):
			fmt.Fprint(ts.Stdout(), pane)
			ts.Fatalf("pane %s never showed %q in %s (last tmux error: %v)", session, fs.Arg(2), Patience, lastErr)
		}
	}
}

// pollEvery is how long a wait that has lasted waited sleeps before it
// looks again: 50 ms for the first second, then a tenth of the time waited,
// at most half a second. A wait is late by at most a tenth of its length.
func pollEvery(waited time.Duration) time.Duration {
	return min(max(waited/10, 50*time.Millisecond), 500*time.Millisecond)
}
