package conversation

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// Meta is what a transcript says of its conversation.
type Meta struct {
	ID      string    // the session id: the file's name
	Cwd     string    // where it started (its first message's cwd)
	Branch  string    // the git branch it last ran on ("" when none is recorded)
	Title   string    // as Claude's own picker shows it (title)
	Updated time.Time // the file's modification time, which Claude's pickers sort by
	Size    int64
}

// window is how much of each end of a transcript is read: Claude's own
// pickers read 64 KiB of the head and of the tail, and re-append the lines
// they title by (last-prompt, custom-title, agent-name) at the end.
const window = 64 << 10

// ReadMeta reads what path (a <id>.jsonl transcript) says of its
// conversation, from its first and last 64 KiB only: transcripts grow to
// megabytes, and a list of a thousand must stay quick.
func ReadMeta(path string) (Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return Meta{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Meta{}, err
	}
	m := Meta{ID: strings.TrimSuffix(filepath.Base(path), ".jsonl"), Updated: fi.ModTime(), Size: fi.Size()}
	head := make([]byte, min(fi.Size(), window))
	if _, err := io.ReadFull(f, head); err != nil {
		return m, err
	}
	tail := head
	if fi.Size() > window {
		tail = make([]byte, window)
		if _, err := f.ReadAt(tail, fi.Size()-window); err != nil && err != io.EOF {
			return m, err
		}
		// The first line of the window is cut: not a line.
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	m.fill(head, tail)
	if m.Cwd == "" && fi.Size() > window {
		// A first line longer than the window (a pasted log as the first
		// prompt) is cut there: read on until its fields are whole, so
		// the conversation is not taken for one that holds none.
		cwd, branch, prompt := longFirstLine(f, fi.Size())
		m.Cwd = cwd
		if m.Branch == "" && branch != "HEAD" {
			m.Branch = branch
		}
		if m.Title == m.ID[:min(8, len(m.ID))] && prompt != "" {
			m.Title = prompt
		}
	}
	return m, nil
}

// longLimit bounds how far longFirstLine reads: a first line longer than this
// is not a transcript Claude wrote.
const longLimit = 64 << 20

// longFirstLine is the cwd, git branch and prompt of the first line of f
// that has a cwd, read a window at a time up to longLimit; "" when none has.
func longFirstLine(f *os.File, size int64) (cwd, branch, prompt string) {
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, min(size, longLimit)), window)
	for {
		var long []byte
		line, err := r.ReadSlice('\n')
		for err == bufio.ErrBufferFull {
			// ReadSlice's buffer holds a window: gather the rest.
			long = append(long, line...)
			line, err = r.ReadSlice('\n')
		}
		if long != nil {
			line = append(long, line...)
		}
		if bytes.Contains(line, []byte(`"cwd"`)) {
			if c := gjson.GetBytes(line, "cwd").String(); c != "" {
				return c, gjson.GetBytes(line, "gitBranch").String(), promptOf(line)
			}
		}
		if err != nil {
			return "", "", ""
		}
	}
}

// titleFields are the lines that title a conversation, most telling first
// (agent-name > custom-title > ai-title > summary > last-prompt): the order
// of Claude's picker on 2.0.77, 2.1.90 and 2.1.331.
var titleFields = []struct{ typ, field string }{
	{"agent-name", "agentName"},
	{"custom-title", "customTitle"},
	{"ai-title", "aiTitle"},
	{"summary", "summary"},
	{"last-prompt", "lastPrompt"},
}

// fill reads the head and the tail (whole lines of the transcript).
func (m *Meta) fill(head, tail []byte) {
	titles := make([]string, len(titleFields))
	var firstPrompt string
	eachLine(head, func(l []byte) bool {
		if m.Cwd == "" && bytes.Contains(l, []byte(`"cwd"`)) {
			m.Cwd = gjson.GetBytes(l, "cwd").String()
		}
		if m.Branch == "" && bytes.Contains(l, []byte(`"gitBranch"`)) {
			m.Branch = gjson.GetBytes(l, "gitBranch").String()
		}
		if firstPrompt == "" && bytes.Contains(l, []byte(`"type":"user"`)) {
			firstPrompt = promptOf(l)
		}
		return m.Cwd == "" || firstPrompt == ""
	})
	// The tail, last line first: the latest of each. Each line's own type
	// is read once (gjson skips what it does not need): looking for each
	// field's name in every line was half of a thousand-conversation list.
	lines := bytes.Split(bytes.TrimRight(tail, "\n"), []byte("\n"))
	branch := ""
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if branch == "" && bytes.Contains(l, []byte(`"gitBranch"`)) {
			branch = gjson.GetBytes(l, "gitBranch").String()
		}
		typ := gjson.GetBytes(l, "type").String()
		for j, tf := range titleFields {
			if titles[j] != "" || typ != tf.typ {
				continue
			}
			if tf.typ == "summary" && !ownLeaf(head, tail, gjson.GetBytes(l, "leafUuid").String()) {
				// 2.0.77 writes other sessions' summaries into a new
				// session's file; its picker does not title by them.
				continue
			}
			titles[j] = gjson.GetBytes(l, tf.field).String()
		}
	}
	if branch != "" && branch != "HEAD" {
		m.Branch = branch
	}
	if m.Branch == "HEAD" {
		m.Branch = "" // 2.1.x outside a branch
	}
	for _, t := range titles {
		// A title of blanks alone cleans to nothing: the next one counts.
		if c := clean(t); c != "" {
			m.Title = c
			return
		}
	}
	if firstPrompt != "" {
		m.Title = firstPrompt
		return
	}
	m.Title = m.ID[:min(8, len(m.ID))]
}

// ownLeaf reports whether a message of this transcript (within the windows
// read) has the uuid leaf.
func ownLeaf(head, tail []byte, leaf string) bool {
	if leaf == "" {
		return false
	}
	needle := []byte(`"uuid":"` + leaf + `"`)
	return bytes.Contains(head, needle) || bytes.Contains(tail, needle)
}

// eachLine calls f on each whole line of b until it returns false.
func eachLine(b []byte, f func([]byte) bool) {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return // cut at the window's end: not a line
		}
		if !f(b[:i]) {
			return
		}
		b = b[i+1:]
	}
}

// promptOf is the user's prompt a user line holds, as the pickers show the
// first one: "" for lines that are not a prompt (meta, tool results, slash
// commands without arguments, command output, hook output).
func promptOf(line []byte) string {
	if gjson.GetBytes(line, "isMeta").Bool() || gjson.GetBytes(line, "isSidechain").Bool() || gjson.GetBytes(line, "isCompactSummary").Bool() {
		return ""
	}
	c := gjson.GetBytes(line, "message.content")
	text := c.String()
	if c.IsArray() {
		text = ""
		for _, b := range c.Array() {
			if b.Get("type").String() == "text" {
				text = b.Get("text").String()
				break
			}
		}
	}
	t := strings.TrimSpace(text)
	switch {
	case t == "",
		strings.HasPrefix(t, "<local-command-stdout>"),
		strings.HasPrefix(t, "<session-start-hook>"),
		strings.HasPrefix(t, "/") && !strings.ContainsAny(t, " \n"):
		return ""
	}
	if rest, ok := strings.CutPrefix(t, "<bash-input>"); ok {
		t = "! " + strings.TrimSuffix(rest, "</bash-input>")
	}
	return clean(t)
}

// tag is compiled when first needed: a list of conversations needs it, no
// launch does.
var tag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`<[A-Za-z][\w-]*(?:\s[^>]*)?>.*?</[A-Za-z][\w-]*>`)
})

// clean puts a title on one line of at most 200 characters, as the pickers
// do, with XML-like tags (command wrappers) dropped.
func clean(s string) string {
	if strings.Contains(s, "<") {
		if t := strings.TrimSpace(tag().ReplaceAllString(s, "")); t != "" {
			s = t
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
