package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/jsonx"
	"github.com/claude-account/claude-account/internal/shell"
)

// Events are the hook events the launcher registers for a session's state,
// with the first release that knows each. Claude rejects a whole settings
// value that names an event it does not know (measured: 2.0.77 and 2.1.77
// run no hook at all from flag settings that list StopFailure), so an event
// goes only to a release that surely has it (claudever.Binary.Has: a
// release that could not be told gets only the events every release knows).
//
// Measured with the loopback API stand-in, interactive (tmux) and -p, on
// 2.0.77, 2.1.77, 2.1.78, 2.1.90, 2.1.197 and 2.1.330 (2026-11-23):
// SessionStart at start (and after /clear), UserPromptSubmit on each prompt
// (-p too), PermissionRequest as a permission dialog opens, Notification
// (permission_prompt about 6 s after the dialog, idle_prompt 60 s after an
// answer), PostToolUse after each tool, Stop at the end of each answer;
// when the API fails, Stop up to 2.1.77, StopFailure from 2.1.78 on.
var Events = []struct {
	Name  string
	Since claudever.Version
}{
	{"SessionStart", claudever.Oldest},
	{"UserPromptSubmit", claudever.Oldest},
	{"PermissionRequest", claudever.Oldest},
	{"Notification", claudever.Oldest},
	{"PostToolUse", claudever.Oldest},
	{"PostToolUseFailure", claudever.Oldest},
	{"Stop", claudever.Oldest},
	{"StopFailure", claudever.StopFailureHook},
}

// Spec is what the launcher adds to one session, as flag settings (claude
// --settings): nothing of it is written to the account's settings.json, so
// it follows the launcher the user runs now and ends with the session.
type Spec struct {
	// Exe is the launcher now running (os.Executable), which the hooks run.
	Exe string
	// ID and Token name the session's state (Record): its instance lock's
	// name, and the lock holder's PID and start (Token).
	ID, Token string
	// Claude is the binary that runs; events its release lacks are left out.
	Claude claudever.Binary
	// StatusLine adds 'claude-account statusline' as the status line.
	StatusLine bool
	// Usage, an account dir, makes the status line record the rate limits
	// Claude reports there (package usage). Without StatusLine it prints
	// only what the account's own status line prints, if it has one
	// (statusline --record-only), keeping that one's Padding.
	Usage   string
	Padding string // a JSON number, or ""
	// Notify makes the state hook notify the user when the session starts
	// to wait (hook state --notify; account.toml notify = true).
	Notify bool
	// WorktreeHooks adds the WorktreeCreate and WorktreeRemove hooks, with
	// these arguments after the verb (" --account max"); "" leaves them out.
	WorktreeHooks string
}

// JSON is the flag settings value, built without reflection: it is the one
// thing the launch path pays for sessions before Claude starts.
func (s Spec) JSON() []byte {
	exe := shell.Quote(s.Exe)
	// One entry, encoded once, for every event.
	stateCmd := exe + " hook state --id " + s.ID + " --token " + s.Token
	if s.Notify {
		stateCmd += " --notify"
	}
	state := hookEntry(stateCmd)
	var hooks []jsonx.Field
	for _, e := range Events {
		if !s.Claude.Has(e.Since) {
			continue
		}
		hooks = append(hooks, jsonx.Field{Name: e.Name, Value: state})
	}
	if s.WorktreeHooks != "" {
		session := " --session " + s.ID + " --token " + s.Token
		hooks = append(hooks,
			jsonx.Field{Name: "WorktreeCreate", Value: hookEntry(exe + " hook worktree-create" + s.WorktreeHooks + session)},
			jsonx.Field{Name: "WorktreeRemove", Value: hookEntry(exe + " hook worktree-remove" + s.WorktreeHooks)})
	}
	fields := []jsonx.Field{{Name: "hooks", Value: jsonx.Object(false, hooks...)}}
	if s.StatusLine || s.Usage != "" {
		command := exe + " statusline"
		if s.Usage != "" {
			command += " --usage " + shell.Quote(s.Usage)
			if !s.StatusLine {
				command += " --record-only"
			}
		}
		line := []jsonx.Field{{Name: "type", Value: jsonx.String("command")},
			{Name: "command", Value: jsonx.String(command)}}
		if s.Padding != "" && !s.StatusLine {
			line = append(line, jsonx.Field{Name: "padding", Value: []byte(s.Padding)})
		}
		fields = append(fields, jsonx.Field{Name: "statusLine", Value: jsonx.Object(false, line...)})
	}
	return jsonx.Object(false, fields...)
}

// hookEntry is one matcher group running command for every match.
func hookEntry(command string) []byte {
	h := jsonx.Object(false, jsonx.Field{Name: "type", Value: jsonx.String("command")},
		jsonx.Field{Name: "command", Value: jsonx.String(command)})
	return append(append([]byte(`[{"hooks":[`), h...), "]}]"...)
}

// WithSettings returns Claude's arguments with ours (Spec.JSON) added. Claude
// takes one --settings: 2.0.77 … 2.1.90 read the first of several, 2.1.330
// the last (measured), so two would lose one. With none of the user's, ours
// goes first; with the user's own (a file, relative to dir, or JSON), theirs
// is read — never written — and replaced by one value: theirs, with our
// hooks after their hooks of each event (both run) and our status line only
// where they have none.
func WithSettings(args []string, ours []byte, dir string) ([]string, error) {
	var theirs []string
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if v, ok := strings.CutPrefix(a, "--settings="); ok {
			theirs = append(theirs, v)
			continue
		}
		if a == "--settings" && i+1 < len(args) {
			theirs = append(theirs, args[i+1])
			i++
			continue
		}
		rest = append(rest, a)
	}
	if len(theirs) == 0 {
		return append([]string{"--settings", string(ours)}, args...), nil
	}
	// Several of the user's: the later wins a key, as on 2.1.330.
	merged := ours
	for _, v := range theirs {
		data, err := userSettings(v, dir)
		if err != nil {
			return args, err
		}
		if merged, err = Merge(data, merged); err != nil {
			return args, fmt.Errorf("--settings %s: %v", v, err)
		}
	}
	return append([]string{"--settings", string(merged)}, rest...), nil
}

// userSettings reads the value of a user's --settings as Claude does: JSON
// when it is an object, else a file.
func userSettings(v, dir string) ([]byte, error) {
	if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") {
		return []byte(t), nil
	}
	path := v
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--settings %s: %v", v, errors.Unwrap(err))
	}
	return data, nil
}

// Merge adds ours to theirs: our hooks after theirs of the same event, and
// every other key of ours only where theirs has none.
func Merge(theirs, ours []byte) ([]byte, error) {
	var t, o map[string]json.RawMessage
	if err := json.Unmarshal(theirs, &t); err != nil || t == nil {
		return nil, errors.New("not a JSON object")
	}
	if err := json.Unmarshal(ours, &o); err != nil {
		return nil, err
	}
	for k, v := range o {
		if k != "hooks" {
			if _, ok := t[k]; !ok {
				t[k] = v
			}
			continue
		}
		var th, oh map[string][]json.RawMessage
		if raw, ok := t["hooks"]; ok {
			if err := json.Unmarshal(raw, &th); err != nil {
				return nil, errors.New(`"hooks" is not an object of arrays`)
			}
		}
		if th == nil {
			th = map[string][]json.RawMessage{}
		}
		if err := json.Unmarshal(v, &oh); err != nil {
			return nil, err
		}
		for event, groups := range oh {
			th[event] = append(th[event], groups...)
		}
		raw, err := marshal(th)
		if err != nil {
			return nil, err
		}
		t["hooks"] = raw
	}
	return marshal(t)
}

// marshal is json.Marshal that leaves <, > and & as they are: they are
// common in hook commands, and the value is read by Claude, not a browser.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Token names one holder of an instance lock: its PID and the moment it took
// the lock. A state file whose token is not the holder's is another
// session's, long gone.
func Token(pid int, started int64) string {
	return strconv.Itoa(pid) + "-" + strconv.FormatInt(started, 10)
}
