package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// answered counts the /v1/messages requests the stand-in answered: the
// sessions' tasks reached it.
var answered atomic.Int64

// stubAPI is a loopback stand-in for the Anthropic API, enough for a
// background session to run its task and go idle: every /v1/messages request
// gets one short text answer (streamed when asked), anything else an empty
// JSON object. Nothing leaves the machine. It returns the base URL and a
// function that stops it.
func stubAPI() (string, func()) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	srv := &http.Server{Handler: http.HandlerFunc(answer), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }
}

func answer(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	w.Header().Set("Content-Type", "application/json")
	if !strings.HasPrefix(r.URL.Path, "/v1/messages") {
		fmt.Fprint(w, `{}`)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		fmt.Fprint(w, `{"input_tokens": 1}`)
		return
	}
	answered.Add(1)
	var req struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	_ = json.Unmarshal(body, &req)
	msg := map[string]any{"id": "msg_bench", "type": "message", "role": "assistant", "model": req.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1, "output_tokens": 0}}
	if !req.Stream {
		msg["content"] = []any{map[string]string{"type": "text", "text": "done"}}
		msg["stop_reason"] = "end_turn"
		_ = json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	events := []struct {
		name string
		data any
	}{
		{"message_start", map[string]any{"type": "message_start", "message": msg}},
		{"content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]string{"type": "text", "text": ""}}},
		{"content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]string{"type": "text_delta", "text": "done"}}},
		{"content_block_stop", map[string]any{"type": "content_block_stop", "index": 0}},
		{"message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 1}}},
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
