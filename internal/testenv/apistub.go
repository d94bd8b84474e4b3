package testenv

import (
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

// apistub [DIR]: a loopback stand-in for the Anthropic API, the oracle for
// what Claude really loaded. It listens on 127.0.0.1, points the script's
// ANTHROPIC_BASE_URL at itself (with a fake ANTHROPIC_API_KEY), records the
// body of every /v1/messages request as DIR/NNN.json (default $WORK/api) and
// answers each with one short text message, streamed when asked to be. It
// stops with the script. Nothing leaves the machine.
func apistub(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: apistub [DIR]")
	}
	dir := filepath.Join(ts.Getenv("WORK"), "api")
	if len(args) == 1 {
		dir = ts.MkAbs(args[0])
	}
	ts.Check(os.MkdirAll(dir, 0o755))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	stub := &apiStub{dir: dir}
	srv := &http.Server{Handler: stub, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	ts.Defer(func() { _ = srv.Close() })
	ts.Setenv("ANTHROPIC_BASE_URL", "http://"+ln.Addr().String())
	ts.Setenv("ANTHROPIC_API_KEY", "sk-ant-fake-for-tests")
}

type apiStub struct {
	dir string
	mu  sync.Mutex
	n   int
}

// Reply is the text every answer carries, for scripts to look for.
const Reply = "stub reply"

func (s *apiStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	_ = os.WriteFile(filepath.Join(s.dir, fmt.Sprintf("%03d.json", n)), body, 0o644)

	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	_ = json.Unmarshal(body, &req)
	id := fmt.Sprintf("msg_stub_%03d", n)
	usage := map[string]int{"input_tokens": 1, "output_tokens": 2}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": req.Model,
			"content":     []map[string]string{{"type": "text", "text": Reply}},
			"stop_reason": "end_turn", "stop_sequence": nil, "usage": usage,
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	events := []struct {
		name string
		data any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": []any{},
			"stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 0}}}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]string{"type": "text", "text": ""}}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]string{"type": "text_delta", "text": Reply}}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta",
			"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 2}}},
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
