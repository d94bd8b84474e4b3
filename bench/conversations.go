package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/conversation"
)

// conversations times 'claude-account sessions' listing 1,000 conversations
// across 50 worktrees of the fixture's repository (20 each, 10 to 20 KB,
// written as Claude writes them: conversation.Sample), each worktree's
// runtime made by a launch, against reading every transcript whole (cat):
// the floor of any list that reads them. Then it times a launch among them:
// conversations are no part of it unless Claude resumes one by id.
func conversations(fx *fixture, t tools, n int, quick bool) {
	trees, each := 50, 20
	if quick {
		trees, each = 3, 4
	}
	var files []string
	now := time.Now()
	for w := 0; w < trees; w++ {
		name := fmt.Sprintf("conv%02d", w)
		path := filepath.Join(fx.dir, "conv", name)
		runCmd(fx.cmd("git", "worktree", "add", "-q", "-b", name, path))
		launch := fx.cmd(fx.launcher)
		launch.Dir = path
		runCmd(launch)
		real, err := filepath.EvalSymlinks(path)
		check(err)
		key := filepath.Join(fx.repo, ".git", "worktrees", name, "claude-runtime", "bench", "projects", conversation.KeyFor(real, claudever.Binary{}))
		check(os.MkdirAll(key, 0o700))
		for c := 0; c < each; c++ {
			i := w*each + c
			id := fmt.Sprintf("%08x-2222-4222-8222-%012x", i, i)
			file := filepath.Join(key, id+".jsonl")
			check(conversation.Sample(file, id, real, name, fmt.Sprintf("make step %d of the parser work", i), 10<<10+i*37%(10<<10), i))
			at := now.Add(-time.Duration(i) * time.Minute)
			check(os.Chtimes(file, at, at))
			files = append(files, file)
		}
	}
	// What is timed lists them all, or the figure means nothing.
	out, err := fx.cmd(t.bin, "sessions", "--json").Output()
	check(err)
	var listed []json.RawMessage
	check(json.Unmarshal(out, &listed))
	if len(listed) != len(files) {
		check(fmt.Errorf("sessions listed %d conversations of %d", len(listed), len(files)))
	}
	label := fmt.Sprintf("list %d conversations across %d worktrees", len(files), trees)
	vs := []variant{
		{name: "cat every transcript (floor)", cmd: func() *exec.Cmd {
			return exec.Command("sh", append([]string{"-c", `cat "$@" >/dev/null`, "sh"}, files...)...)
		}},
		{name: "claude-account sessions", cmd: func() *exec.Cmd { return fx.cmd(t.bin, "sessions") }},
		{name: "claude-account sessions --all --json", cmd: func() *exec.Cmd { return fx.cmd(t.bin, "sessions", "--all", "--json") }},
	}
	if t.base != "" {
		// The base's own listing of the same conversations, interleaved
		// with ours: sessions only reads, so both list one fixture.
		vs = append(vs,
			variant{name: "base: claude-account sessions", cmd: func() *exec.Cmd { return fx.cmd(t.base, "sessions") }},
			variant{name: "base: claude-account sessions --all --json", cmd: func() *exec.Cmd { return fx.cmd(t.base, "sessions", "--all", "--json") }})
	}
	report(compare(n, vs), label, "")
	res := compare(n, []variant{
		{name: "floor: fork the stub Claude, wait", timed: true, cmd: func() *exec.Cmd { return fx.cmd(t.floor, "exec", fx.fake) }},
		{name: "claude-account (claudebench), no --resume", timed: true, cmd: fx.ours},
	})
	report(res, fmt.Sprintf("launch among %d conversations", len(files)), "")
	phases(res)
}
