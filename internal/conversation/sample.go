package conversation

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Sample writes to path a transcript of about size bytes as Claude Code
// writes one, for the benchmarks of Find (go test -bench, go run ./bench):
// the lines its releases put at the head (2.0.77's summary of the
// conversation, the permission mode, a file-history snapshot), the first
// prompt with its cwd and branch, then turns of assistant text, tool uses
// and their results, and 2.1.x's last-prompt line at the end. n varies the
// wording and which release's lines it has.
func Sample(path, id, cwd, branch, prompt string, size, n int) error {
	var b strings.Builder
	line := func(v map[string]any) {
		data, _ := json.Marshal(v)
		b.Write(data)
		b.WriteByte('\n')
	}
	uuid := func(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", n, i) }
	ts := func(i int) string { return fmt.Sprintf("2026-11-%02dT10:%02d:%02d.000Z", 1+n%28, i/60%60, i%60) }
	if n%2 == 0 {
		// 2.0.77 puts the summary of a conversation at its head.
		line(map[string]any{"type": "summary", "summary": fmt.Sprintf("Refactor the parser, step %d", n), "leafUuid": uuid(3)})
	} else {
		line(map[string]any{"type": "permission-mode", "permissionMode": "default", "sessionId": id})
	}
	line(map[string]any{"type": "file-history-snapshot", "messageId": uuid(0), "isSnapshotUpdate": false,
		"snapshot": map[string]any{"messageId": uuid(0), "trackedFileBackups": map[string]any{}, "timestamp": ts(0)}})
	base := func(i int, typ string) map[string]any {
		parent := any(nil)
		if i > 0 {
			parent = uuid(i - 1)
		}
		return map[string]any{"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": cwd,
			"sessionId": id, "version": "2.1.90", "gitBranch": branch, "type": typ, "uuid": uuid(i), "timestamp": ts(i)}
	}
	first := base(0, "user")
	first["message"] = map[string]any{"role": "user", "content": prompt}
	line(first)
	words := strings.Fields("the parser reads each token once and keeps the position of every line so that errors name where they are found; a test covers each case")
	for i := 1; b.Len() < size; i++ {
		l := base(i, "assistant")
		text := strings.Join(words[i%len(words):], " ") + " " + strings.Join(words[:i%len(words)], " ")
		switch i % 3 {
		case 1:
			l["message"] = map[string]any{"id": fmt.Sprintf("msg_%d_%d", n, i), "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
				"content": []any{map[string]any{"type": "text", "text": text + ". " + text}},
				"usage":   map[string]any{"input_tokens": 1200 + i, "output_tokens": 300, "cache_read_input_tokens": 9000}}
		case 2:
			l["message"] = map[string]any{"id": fmt.Sprintf("msg_%d_%d", n, i), "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
				"content": []any{map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d", i), "name": "Read",
					"input": map[string]any{"file_path": cwd + "/internal/parser/parse.go"}}}}
		default:
			l = base(i, "user")
			l["message"] = map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result",
				"tool_use_id": fmt.Sprintf("toolu_%d", i-1), "content": strings.Repeat(text+"\n", 3)}}}
		}
		line(l)
	}
	if n%2 == 1 {
		line(map[string]any{"type": "last-prompt", "lastPrompt": prompt, "sessionId": id})
	}
	return os.WriteFile(path, []byte(b.String()), 0o600)
}
