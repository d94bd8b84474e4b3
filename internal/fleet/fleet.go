// Package fleet reads Claude Code's own fleet in a config dir: the
// supervisor ("daemon") that hosts background sessions (claude --bg, a
// session sent to the background with ←, claude agents) and the sessions it
// hosts, from the files Claude keeps there (DESIGN.md fact 20):
//
//	daemon.lock            {"pid", "procStart", "version", "processWrapper", …} while a supervisor runs
//	sessions/<pid>.json    {"pid", "sessionId", "cwd", "kind": "bg", "jobId", "status", …} per live session
//	jobs/<short>/state.json {"state", "detail", "needs", "tempo", "cwd", …} per background session
//	daemon/roster.json     {"supervisorPid", "workers": {short: {"pid", "sessionId", "cwd", …}}}
//
// Measured on 2.1.197 and 2.1.332 (2.1.141 is the first release whose --bg
// works). Nothing here is believed without the kernel: a record counts only
// while its PID is a Claude now, so a record left by a crash, or planted in
// a runtime a repository's archive brought, lists nothing that runs. Every
// file is read without following a link and up to a record's size.
//
// Reading only: the fleet is Claude's, and what changes it (stop, attach,
// rm) is Claude's own command, run in the config dir that owns it.
package fleet

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/claudeproc"
	"github.com/claude-account/claude-account/internal/fsx"
)

// recordLimit bounds the read of one record (a few hundred bytes to a few
// KiB: the roster carries each worker's dispatch).
const recordLimit = 256 << 10

// Agent is one background session a supervisor hosts, as Claude records it.
type Agent struct {
	// ID is Claude's short id (claude attach ID, stop ID, logs ID).
	ID        string `json:"id"`
	SessionID string `json:"session_id"`
	PID       int    `json:"pid"`
	Cwd       string `json:"cwd"`
	// State is Claude's own judgement of the session (jobs/<id>/state.json):
	// working, needs input, done, failed; starting until it has one.
	State string `json:"state"`
	// Detail is Claude's one line on it (what it does, or what it needs).
	Detail string `json:"detail,omitempty"`
	// ConfigDir is the config dir whose supervisor hosts it: its commands
	// (attach, stop, logs) run with CLAUDE_CONFIG_DIR set to it.
	ConfigDir string    `json:"config_dir"`
	Started   time.Time `json:"started"`
	// Since is when Claude last judged its state (state.json updatedAt),
	// Started until it has.
	Since time.Time `json:"since"`
}

// Needs reports whether the session waits for a person.
func (a Agent) Needs() bool { return a.State == NeedsInput }

// States of a background session, as shown.
const (
	Working    = "working"
	NeedsInput = "needs input"
	Done       = "done"
	Failed     = "failed"
	Starting   = "starting"
)

// Fleet is what one config dir's supervisor runs now.
type Fleet struct {
	ConfigDir string
	// Supervisor is the supervisor's PID, 0 when none runs.
	Supervisor int
	// Version is the release that started the supervisor ("" when unknown).
	Version string
	Agents  []Agent
}

// Live reports whether anything of the fleet runs: a supervisor or a session.
func (f Fleet) Live() bool { return f.Supervisor != 0 || len(f.Agents) > 0 }

// Procs answers whether a PID is a Claude now; Read takes it so that one
// snapshot of the process table serves every config dir of a listing.
type Procs interface{ IsClaude(pid int) bool }

// Read reads the fleet of one config dir. procs nil: the process table now.
// A dir with no fleet (none ever ran, or an older Claude) reads as empty.
func Read(dir string, procs Procs) Fleet {
	f := Fleet{ConfigDir: dir}
	if procs == nil {
		procs = claudeproc.Current()
	}
	if data, err := fsx.ReadFileNoFollow(filepath.Join(dir, "daemon.lock"), recordLimit); err == nil {
		r := gjson.GetManyBytes(data, "pid", "version")
		if pid := int(r[0].Int()); pid > 0 && pid != os.Getpid() && procs.IsClaude(pid) {
			f.Supervisor, f.Version = pid, r[1].String()
		}
	}
	seen := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "sessions", "*.json"))
	for _, file := range files {
		data, err := fsx.ReadFileNoFollow(file, recordLimit)
		if err != nil || len(data) > recordLimit || !gjson.ValidBytes(data) {
			continue
		}
		r := gjson.GetManyBytes(data, "pid", "sessionId", "cwd", "kind", "jobId", "startedAt")
		pid, kind, job := int(r[0].Int()), r[3].String(), r[4].String()
		// A background session: kind "bg" (2.1.332), or a job of the
		// supervisor's (every release with --bg records jobId).
		if pid <= 0 || (kind != "bg" && job == "") || !validShort(job) || seen[job] || !procs.IsClaude(pid) {
			continue
		}
		seen[job] = true
		a := Agent{ID: job, SessionID: r[1].String(), PID: pid, Cwd: r[2].String(), ConfigDir: dir,
			State: Starting, Started: time.UnixMilli(r[5].Int())}
		a.State, a.Detail, a.Since = jobState(dir, job, a.Started)
		f.Agents = append(f.Agents, a)
	}
	// A session the supervisor started that has not written its record yet
	// (a spare being claimed), from the roster: listed as starting.
	if data, err := fsx.ReadFileNoFollow(filepath.Join(dir, "daemon", "roster.json"), recordLimit); err == nil && gjson.ValidBytes(data) {
		gjson.GetBytes(data, "workers").ForEach(func(k, w gjson.Result) bool {
			short := k.String()
			if seen[short] || !validShort(short) {
				return true
			}
			pid := int(w.Get("pid").Int())
			if pid <= 0 || !procs.IsClaude(pid) {
				return true
			}
			seen[short] = true
			a := Agent{ID: short, SessionID: w.Get("sessionId").String(), PID: pid, Cwd: w.Get("cwd").String(),
				ConfigDir: dir, Started: time.UnixMilli(w.Get("startedAt").Int())}
			a.State, a.Detail, a.Since = jobState(dir, short, a.Started)
			f.Agents = append(f.Agents, a)
			return true
		})
	}
	sort.Slice(f.Agents, func(i, j int) bool { return f.Agents[i].Started.Before(f.Agents[j].Started) })
	return f
}

// ValidShort reports whether s can be Claude's short id of a background
// session: 8 lower-case hex digits measured, 6 to 32 taken; anything else in
// a record names no job dir. Written out, not a regular expression: a
// counted repetition compiled at start-up costs every launch its time.
func ValidShort(s string) bool {
	if len(s) < 6 || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

func validShort(s string) bool { return ValidShort(s) }

// jobState is Claude's judgement of a job (jobs/<id>/state.json) as shown,
// and since when (started, until Claude wrote one).
func jobState(dir, short string, started time.Time) (state, detail string, since time.Time) {
	since = started
	data, err := fsx.ReadFileNoFollow(filepath.Join(dir, "jobs", short, "state.json"), recordLimit)
	if err != nil || !gjson.ValidBytes(data) {
		return Starting, "", since
	}
	r := gjson.GetManyBytes(data, "state", "detail", "needs", "updatedAt")
	detail = oneLine(r[1].String())
	if t, err := time.Parse(time.RFC3339Nano, r[3].String()); err == nil {
		since = t
	}
	switch r[0].String() {
	case "blocked":
		if n := oneLine(r[2].String()); n != "" {
			detail = n
		}
		return NeedsInput, detail, since
	case "done":
		return Done, detail, since
	case "failed":
		return Failed, detail, since
	case "working":
		return Working, detail, since
	}
	return Starting, detail, since
}

// oneLine keeps a detail on one short line: Claude's may run on.
func oneLine(s string) string {
	s = string(bytes.Join(bytes.Fields([]byte(s)), []byte(" ")))
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}

// In lists the agents that work in dir or under it (a worktree, and the
// worktrees Claude made inside it for its sessions: .claude/worktrees/).
func (f Fleet) In(dir string) []Agent {
	var in []Agent
	for _, a := range f.Agents {
		if a.Cwd != "" && filepath.IsAbs(a.Cwd) && fsx.Within(a.Cwd, dir) {
			in = append(in, a)
		}
	}
	return in
}

// ReadAll reads the fleets of dirs with one look at the process table,
// leaving out dirs where nothing runs.
func ReadAll(dirs []string) []Fleet {
	procs := claudeproc.Current()
	var out []Fleet
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		if f := Read(d, procs); f.Live() {
			out = append(out, f)
		}
	}
	return out
}
