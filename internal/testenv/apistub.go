package testenv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// apistub [-hold FILE] [-tool COMMAND] [DIR]: a loopback stand-in for the
// Anthropic API, the oracle for what Claude really loaded. It listens on
// 127.0.0.1, points the script's ANTHROPIC_BASE_URL at itself (with a fake
// ANTHROPIC_API_KEY), records the body of every /v1/messages request as
// DIR/NNN.json (default $WORK/api) and answers each with one short text
// message, streamed when asked to be. It stops with the script. Nothing
// leaves the machine.
//
// -hold FILE keeps every answer pending while FILE exists, so a script can see
// Claude while it waits for the model: it makes FILE before the prompt and
// removes it to let the answer go (a gate, not a delay: nothing races a
// clock). -tool COMMAND answers a request that offers tools, and has no tool
// result yet, with a Bash tool call running COMMAND, so that Claude asks for
// permission; the request carrying its result gets the text answer.
func apistub(ts *testscript.TestScript, neg bool, args []string) {
	stub := &APIStub{}
	for len(args) > 1 && (args[0] == "-hold" || args[0] == "-tool") {
		if args[0] == "-hold" {
			stub.Hold = ts.MkAbs(args[1])
		} else {
			stub.Tool = args[1]
		}
		args = args[2:]
	}
	if neg || len(args) > 1 {
		ts.Fatalf("usage: apistub [-hold FILE] [-tool COMMAND] [DIR]")
	}
	stub.Dir = filepath.Join(ts.Getenv("WORK"), "api")
	if len(args) == 1 {
		stub.Dir = ts.MkAbs(args[0])
	}
	ts.Check(os.MkdirAll(stub.Dir, 0o755))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	srv := &http.Server{Handler: stub, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	ts.Defer(func() { _ = srv.Close() })
	ts.Setenv("ANTHROPIC_BASE_URL", "http://"+ln.Addr().String())
	ts.Setenv("ANTHROPIC_API_KEY", "sk-ant-fake-for-tests")
}

// APIStub is apistub's server: Dir records the requests; Hold and Tool are
// its -hold and -tool.
type APIStub struct {
	Dir  string
	Hold string
	Tool string
	mu   sync.Mutex
	n    int
}

// Reply is the text every answer carries, for scripts to look for.
const Reply = "stub reply"

func (s *APIStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if !strings.HasPrefix(r.URL.Path, "/v1/messages") || strings.HasSuffix(r.URL.Path, "/count_tokens") {
		// Token counts, feature flags, telemetry: an empty answer will do.
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/count_tokens") {
			fmt.Fprint(w, `{"input_tokens": 1}`)
			return
		}
		fmt.Fprint(w, `{}`)
		return
	}
	s.mu.Lock()
	s.n++
	n := s.n
	s.mu.Unlock()
	_ = os.WriteFile(filepath.Join(s.Dir, fmt.Sprintf("%03d.json", n)), body, 0o644)

	var req struct {
		Model  string            `json:"model"`
		Stream bool              `json:"stream"`
		Tools  []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	if s.Hold != "" {
		// Claude is working until the script opens the gate.
		for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(s.Hold); err != nil || r.Context().Err() != nil {
				break
			}
		}
	}
	id := fmt.Sprintf("msg_stub_%03d", n)
	usage := map[string]int{"input_tokens": 1, "output_tokens": 2}
	block := map[string]any{"type": "text", "text": Reply}
	stop := "end_turn"
	if s.Tool != "" && len(req.Tools) > 0 && !bytes.Contains(body, []byte(`"tool_result"`)) {
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_stub_%03d", n), "name": "Bash",
			"input": map[string]string{"command": s.Tool, "description": "stub tool call"}}
		stop = "tool_use"
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": req.Model,
			"content":     []any{block},
			"stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		return
	}
	type event = struct {
		name string
		data any
	}
	start := event{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]string{"type": "text", "text": ""}}}
	delta := event{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]string{"type": "text_delta", "text": Reply}}}
	if stop == "tool_use" {
		input, _ := json.Marshal(block["input"])
		start = event{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": "Bash", "input": map[string]any{}}}}
		delta = event{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]string{"type": "input_json_delta", "partial_json": string(input)}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	events := []event{
		{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 0}}}},
		start, delta,
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 2}}},
		{"message_stop", map[string]any{"type": "message_stop"}},
	}
	fl, _ := w.(http.Flusher)
	for _, e := range events {
		data, _ := json.Marshal(e.data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.name, data)
		if fl != nil {
			fl.Flush()
		}
	}
}

// apitext [DIR] OUT: the text of every request apistub recorded in DIR
// (default $WORK/api) — system prompt blocks and message contents, decoded
// from JSON — written to OUT, one block a paragraph, for grep.
func apitext(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: apitext [DIR] OUT")
	}
	dir, out := filepath.Join(ts.Getenv("WORK"), "api"), ts.MkAbs(args[len(args)-1])
	if len(args) == 2 {
		dir = ts.MkAbs(args[0])
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	ts.Check(err)
	if len(files) == 0 {
		ts.Fatalf("apitext: no request recorded in %s", dir)
	}
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		ts.Check(err)
		var req struct {
			Model    string          `json:"model"`
			System   json.RawMessage `json:"system"`
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(data, &req); err != nil {
			ts.Fatalf("apitext: %s: %v", f, err)
		}
		fmt.Fprintf(&b, "=== %s model=%s\n--- system\n%s\n", filepath.Base(f), req.Model, texts(req.System))
		for _, m := range req.Messages {
			fmt.Fprintf(&b, "--- %s\n%s\n", m.Role, texts(m.Content))
		}
	}
	ts.Check(os.WriteFile(out, []byte(b.String()), 0o644))
}

// texts is the text of a system or content value: a string, or blocks of
// which the text ones count.
func texts(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &blocks)
	var parts []string
	for _, bl := range blocks {
		if bl.Text != "" {
			parts = append(parts, bl.Text)
		}
	}
	return strings.Join(parts, "\n")
}
