package worktree

import (
	"errors"
	"strings"
	"testing"
)

// What AfterExit says when Remove keeps an ephemeral worktree: never
// --force, which would let conversations go with it unarchived; for an
// account whose dir is not found, the rm that archives them there.
func TestKeptWhyNamesNoForce(t *testing.T) {
	const path = "/src/app/.claude/worktrees/spike"
	f := removalFacts{Path: path, GitDir: "/src/app/.git/worktrees/spike", Base: "main"}
	for _, c := range []struct {
		name string
		f    func(*removalFacts)
		want string
	}{
		{"an account whose dir is not found", func(f *removalFacts) {
			f.Unfound, f.UnfoundAccount = f.GitDir+"/claude-runtime/work", "work"
		}, "it holds conversations of account work, whose dir this launch cannot find; 'claude-account worktree rm --account work --account-dir DIR " + path + "' archives them there and removes it"},
		{"a runtime set aside of one", func(f *removalFacts) {
			f.UnfoundAside, f.UnfoundAsideAccount = f.GitDir+"/claude-runtime/work.moved-20010909T014640Z", "work"
		}, "it holds conversations of account work, whose dir this launch cannot find; 'claude-account worktree rm --account work --account-dir DIR " + path + "' archives them there and removes it"},
		{"cannot tell whether a Claude works there", func(f *removalFacts) { f.ClaudesErr = errors.New("lsof is not on PATH") },
			"cannot tell whether a Claude works in it: lsof is not on PATH; once none does, 'claude-account worktree rm " + path + "' removes it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := f
			c.f(&f)
			_, err := decideRemoval(f)
			if err == nil {
				t.Fatal("not refused")
			}
			got := keptWhy(err, path)
			if got != c.want || strings.Contains(got, "force") {
				t.Errorf("keptWhy = %s\nwant      %s", got, c.want)
			}
		})
	}
}
