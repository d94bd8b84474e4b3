package session

import (
	"slices"
	"testing"
)

func TestCarried(t *testing.T) {
	for _, tc := range []struct {
		args, kept, dropped []string
	}{
		{[]string{"--model", "opus", "--add-dir", "/tmp", "/x"}, []string{"--model", "opus", "--add-dir", "/tmp", "/x"}, nil},
		{[]string{"--resume", "7777", "--model", "opus", "fix it"}, []string{"--model", "opus"}, []string{"--resume", "7777", "fix it"}},
		{[]string{"-c", "--permission-mode=plan", "-p", "hi"}, []string{"--permission-mode=plan"}, []string{"-c", "-p", "hi"}},
		{[]string{"--verbose", "--no-such", "x"}, []string{"--verbose"}, []string{"--no-such", "x"}},
		{[]string{"-pc", "--", "-x"}, nil, []string{"-pc", "--", "-x"}},
		{[]string{"--model"}, []string{"--model"}, nil},
	} {
		kept, dropped := Carried(tc.args)
		if !slices.Equal(kept, tc.kept) || !slices.Equal(dropped, tc.dropped) {
			t.Errorf("Carried(%q) = %q, %q; want %q, %q", tc.args, kept, dropped, tc.kept, tc.dropped)
		}
	}
}
