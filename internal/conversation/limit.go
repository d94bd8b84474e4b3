package conversation

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/tidwall/gjson"
)

// Refusal is the turn a usage limit refused, as the transcript records it:
// Claude writes the user's entry, then an assistant entry of its own with
// "error":"rate_limit" and "isApiErrorMessage":true whose text is the line
// it showed ("You've hit your 5-hour limit · resets 5:01pm (UTC)"), then
// entries of no turn (system, last-prompt …): measured on 2.1.90 and
// 2.1.332.
type Refusal struct {
	// Prompt is the text of the refused user entry; "" when that entry was
	// not a prompt of the user's (a tool's result: the limit came mid-turn).
	Prompt string
	// User and Error are the uuids of the refused entry and of Claude's
	// refusal.
	User, Error string
	// Message is Claude's line, as it showed it.
	Message string
	// Dropped counts the blocks of the refused prompt that are not text
	// (images, documents): only its text can be sent again as an argument.
	Dropped int
}

// isRefusal reports whether a transcript line is Claude's entry for a turn
// the API refused at a usage limit.
func isRefusal(line []byte) bool {
	if !bytes.Contains(line, []byte(`"rate_limit"`)) {
		return false
	}
	f := gjson.GetManyBytes(line, "type", "error", "isApiErrorMessage")
	return f[0].String() == "assistant" && f[1].String() == "rate_limit" && f[2].Bool()
}

// AtLimit reads whether the transcript at path ends at a turn a usage limit
// refused: its last assistant entry is the refusal, and no prompt of the
// user's came after it. Only the last 64 KiB are read (a transcript grows to
// megabytes; a refusal and what follows it are a few KiB).
func AtLimit(path string) (Refusal, bool) {
	f, err := os.Open(path)
	if err != nil {
		return Refusal{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return Refusal{}, false
	}
	n := min(fi.Size(), window)
	tail := make([]byte, n)
	if _, err := f.ReadAt(tail, fi.Size()-n); err != nil && err != io.EOF {
		return Refusal{}, false
	}
	if fi.Size() > window {
		if i := bytes.IndexByte(tail, '\n'); i >= 0 {
			tail = tail[i+1:]
		}
	}
	return EndsRefused(tail)
}

// EndsRefused is AtLimit of a transcript's last lines (whole lines): the
// last assistant entry of the conversation (no side chain) is a refusal,
// and no prompt of the user's follows it. The refused entry is the one the
// refusal names as its parent, when the lines hold it.
func EndsRefused(data []byte) (Refusal, bool) {
	lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := lines[i]
		if !gjson.ValidBytes(l) {
			continue
		}
		f := gjson.GetManyBytes(l, "type", "isSidechain")
		if f[1].Bool() {
			continue
		}
		switch f[0].String() {
		case "user":
			if promptOf(l) != "" && !isCommand(l) {
				return Refusal{}, false // the user went on after it
			}
		case "assistant":
			if !isRefusal(l) {
				return Refusal{}, false
			}
			r := Refusal{Error: gjson.GetBytes(l, "uuid").String(), Message: textOf(gjson.GetBytes(l, "message.content"))}
			parent := gjson.GetBytes(l, "parentUuid").String()
			for j := i - 1; j >= 0 && parent != ""; j-- {
				if !bytes.Contains(lines[j], []byte(parent)) || gjson.GetBytes(lines[j], "uuid").String() != parent {
					continue
				}
				if gjson.GetBytes(lines[j], "type").String() == "user" {
					r.User = parent
					r.Prompt = rawPrompt(lines[j])
					if r.Prompt != "" {
						r.Dropped = nonText(gjson.GetBytes(lines[j], "message.content"))
					}
				}
				break
			}
			return r, true
		}
	}
	return Refusal{}, false
}

// isCommand reports whether a user line is a slash command's record (2.1.90
// opens /rate-limit-options after a refusal) or of the ! shell's (its input
// and output: '! claude-account resume --next' typed after the refusal),
// not a prompt.
func isCommand(line []byte) bool {
	t := strings.TrimSpace(textOf(gjson.GetBytes(line, "message.content")))
	for _, p := range []string{"<command-name>", "<command-message>", "<local-command-", "<bash-input>", "<bash-stdout>", "<bash-stderr>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// nonText counts a message content's blocks that are not text.
func nonText(c gjson.Result) int {
	n := 0
	if c.IsArray() {
		for _, b := range c.Array() {
			if b.Get("type").String() != "text" {
				n++
			}
		}
	}
	return n
}

// rawPrompt is the text of a user entry as the user typed it, to send again:
// not cleaned as a title is; "" for a tool's result or a meta entry.
func rawPrompt(line []byte) string {
	if gjson.GetBytes(line, "isMeta").Bool() || gjson.GetBytes(line, "toolUseResult").Exists() {
		return ""
	}
	c := gjson.GetBytes(line, "message.content")
	if c.IsArray() {
		for _, b := range c.Array() {
			if b.Get("type").String() == "tool_result" {
				return ""
			}
		}
	}
	return textOf(c)
}

// textOf is the text of a message's content: a string, or its text blocks
// joined.
func textOf(c gjson.Result) string {
	if !c.IsArray() {
		return c.String()
	}
	var parts []string
	for _, b := range c.Array() {
		if b.Get("type").String() == "text" {
			parts = append(parts, b.Get("text").String())
		}
	}
	return strings.Join(parts, "\n")
}

// WithoutRefusal is a transcript's bytes without the refused turn r and what
// Claude wrote after it, for the copy of the account that sends the turn
// again: the refused entry, the refusal, and every later line of the
// conversation (one with a uuid: system entries, the refusal's own
// follow-ups, and a last-prompt naming one of them); lines of no turn
// (titles, summaries, costs) stay. The bytes before
// the refused entry are kept as they are. ok false when data holds no such
// entry.
func WithoutRefusal(data []byte, r Refusal) ([]byte, bool) {
	// A refused tool result stays: dropped, the tool call before it would
	// have no result, which the API refuses. Only a prompt is sent again.
	start := r.User
	if start == "" || r.Prompt == "" {
		start = r.Error
	}
	out := make([]byte, 0, len(data))
	cut := false
	dropped := map[string]bool{}
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if !cut && bytes.Contains(line, []byte(start)) && gjson.GetBytes(line, "uuid").String() == start {
			cut = true
		}
		if cut {
			// A line of the turn, or one naming it as its leaf (last-prompt:
			// a leaf Claude would look for and not find).
			f := gjson.GetManyBytes(line, "uuid", "leafUuid")
			if f[0].Exists() {
				dropped[f[0].String()] = true
				continue
			}
			if f[1].Exists() && dropped[f[1].String()] {
				continue
			}
		}
		out = append(out, line...)
	}
	return out, cut
}
