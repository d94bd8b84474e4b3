package testenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/claudever"
)

// StubVersion is the release the stub claude says it is (--version) unless
// CLAUDE_STUB_VERSION says otherwise: the newest the launcher knows.
const StubVersion = "2.1.330"

// StubClaude stands in for Claude Code: it prints what it was started with,
// does what its CLAUDE_STUB_* switches ask, in the order of the table below,
// and exits 0.
//
// Started with --version alone, it only answers "V (Claude Code)", V being
// the release of its package when it is in one of its own (mkclaude
// -native), else CLAUDE_STUB_VERSION, else StubVersion. Otherwise it prints,
// one a line: config=$CLAUDE_CONFIG_DIR, task=$CLAUDE_CODE_TASK_LIST_ID and
// account=$CLAUDE_ACCOUNT; securestorage=, memory= and plugins= (what a
// runtime shares with its account: CLAUDE_SECURESTORAGE_CONFIG_DIR,
// CLAUDE_CODE_REMOTE_MEMORY_DIR, CLAUDE_CODE_PLUGIN_CACHE_DIR) when set; a
// leading --settings VALUE (the flag settings the launcher adds) as
// settings=VALUE, apart from the arguments; and each other argument as
// argN="…" (Go-quoted, N from 0).
//
// Every switch, in the order it acts:
//
//	CLAUDE_STUB_VERSION=V      the release it answers --version with (mkclaude's
//	                           cli.js sets it); a -native package's wins
//	CLAUDE_STUB_ENV=NAME       print "env NAME=<$NAME>" (before settings=)
//	CLAUDE_STUB_HOOKS="STEP …" run the hooks of the flag settings as Claude runs
//	                           them (sh -c COMMAND, the hook's JSON on stdin, its
//	                           output to stderr, a failure reported there); each
//	                           STEP is EVENT[:DETAIL][,EVENT…], DETAIL being the
//	                           notification_type of a Notification, the source
//	                           of a SessionStart (default startup), the name
//	                           of a WorktreeCreate, the tool_name of a
//	                           PermissionRequest (default Bash) or the error of
//	                           a StopFailure (default server_error; rate_limit
//	                           comes with Claude's line "You've hit your 5-hour
//	                           limit · resets 5:01pm (UTC)"); the first step runs at
//	                           start, each SIGUSR1 runs the next, and each step
//	                           done is logged as "hooks=STEP" in FILE.log (with
//	                           CLAUDE_STUB_READY=FILE)
//	CLAUDE_STUB_HOOK_CWD=DIR   the hooks' "cwd" (default: the stub's own)
//	CLAUDE_STUB_SESSION_ID=ID  the hooks' "session_id" (default
//	                           stub-session-0001)
//	CLAUDE_STUB_STATUS=FILE    run the status line as Claude does after an
//	                           answer, with FILE's JSON on stdin, and print
//	                           statusline="<its output>" (and statuspadding=),
//	                           or statusline=none when none is set (runStatusLine);
//	                           exit 97 when FILE cannot be read
//	CLAUDE_STUB_TOUCH=FILE     write FILE in its working directory, as Claude
//	                           editing code would
//	CLAUDE_STUB_SH=SCRIPT      run SCRIPT with sh -e, output passed through, as
//	                           Claude changing its own files would; exit 98
//	                           when it fails
//	CLAUDE_STUB_STDIN=1        print each line of its stdin, to its end, as
//	                           stdin=LINE
//	CLAUDE_STUB_READY=FILE     write "<launcher pid>\n<own pid>\n" to FILE (exit
//	                           99 when it cannot), then wait for signals,
//	                           printing each as signal=NAME (also to FILE.log):
//	                           INT, TERM, HUP and QUIT end it (exit 0), WINCH
//	                           does not, USR1 runs the next CLAUDE_STUB_HOOKS step
//	CLAUDE_STUB_KEEP=1         with READY, only TERM ends it, like Claude, where
//	                           one Ctrl-C only asks "press again to exit"
//	CLAUDE_STUB_DIE=1          with READY, a signal that ends it kills it (death
//	                           by that signal, not exit 0)
//	CLAUDE_STUB_EXIT=N         exit N instead of 0 (without READY, whose signals
//	                           decide how it ends)
func StubClaude() {
	if len(os.Args) == 2 && os.Args[1] == "--version" {
		// As Claude answers it: the launcher asks once per binary. A stub
		// in a package of its own (mkclaude -native) is that release.
		v := os.Getenv("CLAUDE_STUB_VERSION")
		if exe, err := os.Executable(); err == nil {
			if c := claudever.Identify(exe, "", nil); c.Known {
				v = c.Version.String()
			}
		}
		if v == "" {
			v = StubVersion
		}
		fmt.Printf("%s (Claude Code)\n", v)
		return
	}
	fmt.Printf("config=%s\n", os.Getenv("CLAUDE_CONFIG_DIR"))
	fmt.Printf("task=%s\n", os.Getenv("CLAUDE_CODE_TASK_LIST_ID"))
	fmt.Printf("account=%s\n", os.Getenv("CLAUDE_ACCOUNT"))
	// What a runtime shares with its account through the environment, when set.
	for _, v := range [][2]string{{"securestorage", "CLAUDE_SECURESTORAGE_CONFIG_DIR"}, {"memory", "CLAUDE_CODE_REMOTE_MEMORY_DIR"}, {"plugins", "CLAUDE_CODE_PLUGIN_CACHE_DIR"}} {
		if val, ok := os.LookupEnv(v[1]); ok && val != "" {
			fmt.Printf("%s=%s\n", v[0], val)
		}
	}
	if name := os.Getenv("CLAUDE_STUB_ENV"); name != "" {
		fmt.Printf("env %s=%s\n", name, os.Getenv(name))
	}
	args := os.Args[1:]
	var settings string
	if len(args) >= 2 && args[0] == "--settings" {
		settings, args = args[1], args[2:]
		fmt.Printf("settings=%s\n", settings)
	}
	for i, a := range args {
		fmt.Printf("arg%d=%q\n", i, a)
	}
	steps := strings.Fields(os.Getenv("CLAUDE_STUB_HOOKS"))
	runStep := func() {
		if len(steps) == 0 {
			return
		}
		step := steps[0]
		steps = steps[1:]
		for _, ev := range strings.Split(step, ",") {
			runHooks(settings, ev)
		}
		if ready := os.Getenv("CLAUDE_STUB_READY"); ready != "" {
			appendLine(ready+".log", "hooks="+step)
		}
	}
	runStep()
	if f := os.Getenv("CLAUDE_STUB_STATUS"); f != "" {
		runStatusLine(settings, f)
	}
	if f := os.Getenv("CLAUDE_STUB_TOUCH"); f != "" {
		_ = os.WriteFile(f, []byte("made by claude\n"), 0o644)
	}
	if script := os.Getenv("CLAUDE_STUB_SH"); script != "" {
		// What Claude itself does to its files during a session
		// ('claude mcp add', accepting the trust dialog), as a shell script
		// run with Claude's environment.
		c := exec.Command("sh", "-ec", script)
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "CLAUDE_STUB_SH:", err)
			os.Exit(98)
		}
	}
	if os.Getenv("CLAUDE_STUB_STDIN") == "1" {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			fmt.Printf("stdin=%s\n", sc.Text())
		}
	}
	if ready := os.Getenv("CLAUDE_STUB_READY"); ready != "" {
		sigs := make(chan os.Signal, 8)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGWINCH, syscall.SIGUSR1)
		if err := os.WriteFile(ready, []byte(fmt.Sprintf("%d\n%d\n", os.Getppid(), os.Getpid())), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(99)
		}
		for s := range sigs {
			sig := s.(syscall.Signal)
			fmt.Printf("signal=%s\n", strings.ToUpper(unix(sig)))
			appendLine(ready+".log", "signal="+strings.ToUpper(unix(sig)))
			if sig == syscall.SIGUSR1 {
				runStep()
			}
			if sig != syscall.SIGTERM && os.Getenv("CLAUDE_STUB_KEEP") == "1" {
				continue // like Claude, where one Ctrl-C only asks "press again to exit"
			}
			switch sig {
			case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT:
				if os.Getenv("CLAUDE_STUB_DIE") == "1" {
					signal.Reset(sig)
					_ = syscall.Kill(os.Getpid(), sig)
					time.Sleep(time.Second)
				}
				os.Exit(0)
			}
		}
	}
	if code := os.Getenv("CLAUDE_STUB_EXIT"); code != "" {
		n, _ := strconv.Atoi(code)
		os.Exit(n)
	}
	os.Exit(0)
}

// runHooks runs the hooks that settings (flag settings JSON) register for
// one event, as Claude runs them: through sh, in Claude's directory, with the
// hook's JSON on stdin. A failing hook is reported on stderr, as Claude
// reports one, and does not stop the stub.
func runHooks(settings, event string) {
	name, detail, _ := strings.Cut(event, ":")
	cwd := os.Getenv("CLAUDE_STUB_HOOK_CWD")
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	id := os.Getenv("CLAUDE_STUB_SESSION_ID")
	if id == "" {
		id = "stub-session-0001"
	}
	in := map[string]any{"session_id": id, "transcript_path": "/dev/null", "cwd": cwd, "hook_event_name": name}
	switch name {
	case "Notification":
		in["notification_type"], in["message"] = detail, "Claude needs your attention"
	case "SessionStart":
		if detail == "" {
			detail = "startup"
		}
		in["source"] = detail
	case "UserPromptSubmit":
		in["prompt"] = "hi"
	case "WorktreeCreate":
		in["name"] = detail
	case "PermissionRequest":
		if detail == "" {
			detail = "Bash"
		}
		in["tool_name"] = detail
	case "StopFailure":
		// As 2.1.90 and 2.1.332 send it at a five-hour limit.
		if detail == "" {
			detail = "server_error"
		}
		in["error"], in["last_assistant_message"] = detail, "API Error: 500"
		if detail == "rate_limit" {
			in["last_assistant_message"] = "You've hit your 5-hour limit · resets 5:01pm (UTC)"
		}
	}
	data, _ := json.Marshal(in)
	for _, group := range gjson.Get(settings, "hooks."+gjson.Escape(name)).Array() {
		for _, h := range group.Get("hooks").Array() {
			c := exec.Command("sh", "-c", h.Get("command").String())
			c.Stdin = bytes.NewReader(data)
			c.Stdout, c.Stderr = os.Stderr, os.Stderr
			if err := c.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "hook %s: %v\n", name, err)
			}
		}
	}
}

// runStatusLine runs the status line as Claude does after an answer: the
// flag settings' statusLine, else the config dir's settings.json one, through
// sh, with the status JSON in file (CLAUDE_STUB_STATUS; write it as the real
// one sends it) on stdin, and with the env of the project's settings
// (.claude/settings.json in its directory) added, as Claude 2.1.90 gives a
// trusted project's env to what it runs; it prints statusline=<its output,
// quoted> and statuspadding=<padding> when set.
func runStatusLine(settings, file string) {
	line := gjson.Get(settings, "statusLine")
	if !line.Exists() {
		data, _ := os.ReadFile(filepath.Join(os.Getenv("CLAUDE_CONFIG_DIR"), "settings.json"))
		line = gjson.GetBytes(data, "statusLine")
	}
	if !line.Exists() {
		fmt.Println("statusline=none")
		return
	}
	input, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "CLAUDE_STUB_STATUS:", err)
		os.Exit(97)
	}
	c := exec.Command("sh", "-c", line.Get("command").String())
	c.Stdin, c.Stderr = bytes.NewReader(input), os.Stderr
	project, _ := os.ReadFile(filepath.Join(".claude", "settings.json"))
	if env := gjson.GetBytes(project, "env"); env.IsObject() {
		c.Env = os.Environ()
		env.ForEach(func(k, v gjson.Result) bool {
			c.Env = append(c.Env, k.String()+"="+v.String())
			return true
		})
	}
	out, err := c.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "statusline: %v\n", err)
	}
	fmt.Printf("statusline=%q\n", string(out))
	if p := line.Get("padding"); p.Exists() {
		fmt.Printf("statuspadding=%s\n", p.Raw)
	}
}

func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		fmt.Fprintln(f, line)
		f.Close()
	}
}

func unix(sig syscall.Signal) string {
	names := map[syscall.Signal]string{syscall.SIGINT: "int", syscall.SIGTERM: "term", syscall.SIGHUP: "hup",
		syscall.SIGQUIT: "quit", syscall.SIGWINCH: "winch", syscall.SIGUSR1: "usr1"}
	return names[sig]
}
