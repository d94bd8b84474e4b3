package lock

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-account/claude-account/internal/jsonx"
)

// Holder is the body of a lock file.
type Holder struct {
	PID       int       `json:"pid"`                 // the launcher, which forwards signals to Claude
	ClaudePID int       `json:"claudePid,omitempty"` // Claude itself, once started: the PID ps shows
	Account   string    `json:"account"`
	Workspace string    `json:"workspace"`           // the toplevel, or "" outside a work tree
	ConfigDir string    `json:"configDir,omitempty"` // Claude's CLAUDE_CONFIG_DIR
	Started   time.Time `json:"started"`
	// In tmux, the launcher's TMUX (the server's socket, its PID, the
	// session) and TMUX_PANE (the pane, "%3"): where 'jump' goes.
	Tmux string `json:"tmux,omitempty"`
	Pane string `json:"pane,omitempty"`
}

// ValidPane reports whether pane is a tmux pane id as TMUX_PANE holds it:
// "%" and digits. Anything else is not passed to tmux as a target.
func ValidPane(pane string) bool {
	if len(pane) < 2 || len(pane) > 12 || pane[0] != '%' {
		return false
	}
	for _, r := range pane[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// TmuxSocket is the server socket of a TMUX value ("socket,pid,session"),
// "" when it names none.
func TmuxSocket(tmux string) string {
	socket, _, _ := strings.Cut(tmux, ",")
	if !filepath.IsAbs(socket) {
		return ""
	}
	return socket
}

// write replaces the body in place: the file is never replaced or deleted
// while locked, since a lock on a renamed-away inode would lock nothing.
func (l *Lock) write() error {
	h := l.holder
	fields := []jsonx.Field{{Name: "pid", Value: jsonx.Int(h.PID)}}
	if h.ClaudePID != 0 {
		fields = append(fields, jsonx.Field{Name: "claudePid", Value: jsonx.Int(h.ClaudePID)})
	}
	fields = append(fields,
		jsonx.Field{Name: "account", Value: jsonx.String(h.Account)},
		jsonx.Field{Name: "workspace", Value: jsonx.String(h.Workspace)},
		jsonx.Field{Name: "configDir", Value: jsonx.String(h.ConfigDir)},
		jsonx.Field{Name: "started", Value: jsonx.String(h.Started.Format(time.RFC3339Nano))})
	if h.Pane != "" {
		fields = append(fields, jsonx.Field{Name: "tmux", Value: jsonx.String(h.Tmux)},
			jsonx.Field{Name: "pane", Value: jsonx.String(h.Pane)})
	}
	data := jsonx.Object(false, fields...)
	// Write, then cut: a reader never sees an empty body, only the old or
	// the new one (or, for a moment, the new one with old bytes after it,
	// which it reads past: the body is one JSON value).
	data = append(data, '\n')
	if _, err := l.f.WriteAt(data, 0); err != nil {
		return err
	}
	return l.f.Truncate(int64(len(data)))
}

func readHolder(f *os.File) *Holder {
	var h Holder
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, 0)
	if json.NewDecoder(bytes.NewReader(buf[:n])).Decode(&h) != nil {
		return nil
	}
	return &h
}

// awaitHolder reads the holder of a lock someone has just taken: its body
// may not be written yet, so it looks again for up to 200 ms before giving up
// on naming a PID.
func awaitHolder(f *os.File) *Holder {
	for deadline := time.Now().Add(200 * time.Millisecond); ; time.Sleep(5 * time.Millisecond) {
		if h := readHolder(f); h != nil && h.PID > 0 || time.Now().After(deadline) {
			return h
		}
	}
}
