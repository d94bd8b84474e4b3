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
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// apistub [-proxy] [-hold FILE] [-limit FILE] [-tool COMMAND] [-ask] [DIR]: a loopback stand-in for the Anthropic API, the
// oracle for what Claude really loaded and with which login. It listens on
// 127.0.0.1, points the script's ANTHROPIC_BASE_URL at itself (with a fake
// ANTHROPIC_API_KEY), records the body of every /v1/messages request as
// DIR/NNN.json and its headers as DIR/NNN.headers.json (default DIR
// $WORK/api), and answers each with one short text message, streamed when
// asked to be. It stops with the script. Nothing leaves the machine.
//
// With -proxy it is also Claude's HTTPS proxy (HTTPS_PROXY, with its own
// certificate authority in NODE_EXTRA_CA_CERTS; loopback bypasses it): every
// request Claude makes to another host lands here too, and an OAuth token
// request (POST /v1/oauth/token, where Claude refreshes an expired login) is
// recorded as DIR/token-NNN.json and answered with the access token
// sk-ant-oat01-NAME-N and the refresh token sk-ant-ort01-NAME-N, NAME being
// DIR's base name and N counting its token requests. Claude sends its refresh to its OAuth host, never to
// ANTHROPIC_BASE_URL (measured on 2.0.77, 2.1.90, 2.1.330), so only a proxy
// can answer it; every release honours HTTPS_PROXY for it.
//
// -ratelimit 5h=0.42@+3600,7d=0.13@1900500000 adds to every answer
// the headers a subscriber's answers carry and Claude reads its usage from:
// anthropic-ratelimit-unified-<window>-utilization (a fraction) and
// -<window>-reset (epoch seconds), with -status allowed (read from the
// 2.1.90 and 2.1.330 binaries: the status line's rate_limits come from them).
//
// -hold FILE keeps every answer pending while FILE exists, so a script can see
// Claude while it waits for the model: it makes FILE before the prompt and
// removes it to let the answer go (a gate, not a delay: nothing races a
// clock). -tool COMMAND answers a request that offers tools, and has no tool
// result yet, with a Bash tool call running COMMAND, so that Claude asks for
// permission; the request carrying its result gets the text answer. -ask
// answers such a request with an AskUserQuestion call instead (one question,
// "Which colour?", options Red and Blue), so that Claude asks its user: on
// 2.0.77, 2.1.90 and 2.1.332 its hooks see PermissionRequest with
// "tool_name":"AskUserQuestion".
//
// -limit FILE refuses every request while FILE exists as the API does at a
// subscriber's five-hour limit (429, unified status "rejected", the
// five-hour window the claim, its reset): 2.1.90 and 2.1.332 then show
// "You've hit your … limit · resets …", fire StopFailure with
// "error":"rate_limit", and report the window at 100% to the status line.
func apistub(ts *testscript.TestScript, neg bool, args []string) {
	stub := &apiStub{}
	proxy := false
	for len(args) > 0 {
		switch {
		case args[0] == "-proxy":
			proxy, args = true, args[1:]
			continue
		case args[0] == "-hold" && len(args) > 1:
			stub.hold, args = ts.MkAbs(args[1]), args[2:]
			continue
		case args[0] == "-tool" && len(args) > 1:
			stub.tool, args = args[1], args[2:]
			continue
		case args[0] == "-ask":
			stub.ask, args = true, args[1:]
			continue
		case args[0] == "-limit" && len(args) > 1:
			stub.limit, args = ts.MkAbs(args[1]), args[2:]
			continue
		case args[0] == "-ratelimit" && len(args) > 1:
			h, err := rateLimitHeaders(args[1])
			ts.Check(err)
			stub.ratelimit, args = h, args[2:]
			continue
		}
		break
	}
	if neg || len(args) > 1 {
		ts.Fatalf("usage: apistub [-proxy] [-hold FILE] [-limit FILE] [-tool COMMAND] [-ask] [-ratelimit 5h=F@EPOCH,7d=F@EPOCH] [DIR]")
	}
	dir := filepath.Join(ts.Getenv("WORK"), "api")
	if len(args) == 1 {
		dir = ts.MkAbs(args[0])
	}
	ts.Check(os.MkdirAll(dir, 0o755))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	stub.dir = dir
	srv := &http.Server{Handler: stub, ReadHeaderTimeout: 10 * time.Second}
	if proxy {
		ca, err := newStubCA()
		ts.Check(err)
		stub.ca = ca
		stub.tunnels = &connListener{conns: make(chan net.Conn), done: make(chan struct{})}
		tunneled := &http.Server{Handler: stub, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = tunneled.Serve(stub.tunnels) }()
		ts.Defer(func() { _ = tunneled.Close() })
		caFile := filepath.Join(dir, "ca.pem")
		ts.Check(os.WriteFile(caFile, ca.certPEM, 0o644))
		ts.Setenv("HTTPS_PROXY", "http://"+ln.Addr().String())
		ts.Setenv("https_proxy", "http://"+ln.Addr().String())
		ts.Setenv("NO_PROXY", "127.0.0.1,localhost")
		ts.Setenv("no_proxy", "127.0.0.1,localhost")
		ts.Setenv("NODE_EXTRA_CA_CERTS", caFile)
	}
	go func() { _ = srv.Serve(ln) }()
	ts.Defer(func() { _ = srv.Close() })
	ts.Setenv("ANTHROPIC_BASE_URL", "http://"+ln.Addr().String())
	ts.Setenv("ANTHROPIC_API_KEY", "sk-ant-fake-for-tests")
}

type apiStub struct {
	dir  string
	hold string // -hold: answers wait while this file exists
	tool string // -tool: the Bash command a first answer asks to run
	ask  bool   // -ask: a first answer asks the user a question
	// -ratelimit: the unified rate-limit headers every answer carries
	ratelimit http.Header
	// -limit: while this file exists, every request is refused with 429 at
	// the five-hour limit
	limit   string
	ca      *stubCA       // with -proxy
	tunnels *connListener // with -proxy: the TLS ends of CONNECT tunnels
	mu      sync.Mutex
	n       int // /v1/messages requests
	tokens  int // OAuth token requests
}

// Reply is the text every answer carries, for scripts to look for.
const Reply = "stub reply"

func (s *apiStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		s.tunnel(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if r.Method == http.MethodPost && r.URL.Path == "/v1/oauth/token" {
		s.token(w, body)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/api/oauth/profile") {
		// Who is logged in, asked after a refresh: a plausible Max account.
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, stubProfile)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/api/oauth/claude_cli/roles") {
		// The login's roles, asked right after a login: where Claude
		// records the organization's name (oauthAccount.organizationName).
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, stubRoles)
		return
	}
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
	_ = os.WriteFile(filepath.Join(s.dir, fmt.Sprintf("%03d.headers.json", n)), headersJSON(r.Header), 0o644)
	_ = os.WriteFile(filepath.Join(s.dir, fmt.Sprintf("%03d.json", n)), body, 0o644)

	var req struct {
		Model  string            `json:"model"`
		Stream bool              `json:"stream"`
		Tools  []json.RawMessage `json:"tools"`
	}
	_ = json.Unmarshal(body, &req)
	if s.hold != "" {
		// Claude is working until the script opens the gate.
		for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if _, err := os.Stat(s.hold); err != nil || r.Context().Err() != nil {
				break
			}
		}
	}
	for k, v := range s.ratelimit {
		w.Header()[k] = v
	}
	if s.limit != "" {
		if _, err := os.Stat(s.limit); err == nil {
			s.refuse(w)
			return
		}
	}
	id := fmt.Sprintf("msg_stub_%03d", n)
	usage := map[string]int{"input_tokens": 1, "output_tokens": 2}
	block := map[string]any{"type": "text", "text": Reply}
	stop := "end_turn"
	if (s.tool != "" || s.ask) && len(req.Tools) > 0 && !bytes.Contains(body, []byte(`"tool_result"`)) {
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_stub_%03d", n), "name": "Bash",
			"input": map[string]any{"command": s.tool, "description": "stub tool call"}}
		if s.ask {
			option := func(l string) map[string]string { return map[string]string{"label": l, "description": l} }
			block["name"], block["input"] = "AskUserQuestion", map[string]any{"questions": []any{map[string]any{
				"question": "Which colour?", "header": "Colour", "multiSelect": false,
				"options": []any{option("Red"), option("Blue")}}}}
		}
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
			"content_block": map[string]any{"type": "tool_use", "id": block["id"], "name": block["name"], "input": map[string]any{}}}}
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

// refuse answers as the API does at a subscriber's five-hour limit: 429,
// the unified status "rejected", the five-hour window as the claim that
// decided, and its reset (the -ratelimit one, else an hour ahead).
func (s *apiStub) refuse(w http.ResponseWriter) {
	reset := w.Header().Get("anthropic-ratelimit-unified-5h-reset")
	if reset == "" {
		reset = strconv.FormatInt(time.Now().Unix()+3600, 10)
	}
	h := w.Header()
	h.Set("anthropic-ratelimit-unified-status", "rejected")
	h.Set("anthropic-ratelimit-unified-5h-status", "rejected")
	h.Set("anthropic-ratelimit-unified-5h-utilization", "1.0")
	h.Set("anthropic-ratelimit-unified-5h-reset", reset)
	h.Set("anthropic-ratelimit-unified-reset", reset)
	h.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
	h.Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	fmt.Fprint(w, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your rate limit."}}`)
}

// rateLimitHeaders parses apistub's -ratelimit value.
func rateLimitHeaders(spec string) (http.Header, error) {
	h := http.Header{}
	h.Set("anthropic-ratelimit-unified-status", "allowed")
	for _, part := range strings.Split(spec, ",") {
		win, rest, ok1 := strings.Cut(part, "=")
		util, reset, ok2 := strings.Cut(rest, "@")
		if !ok1 || !ok2 || (win != "5h" && win != "7d") {
			return nil, fmt.Errorf("-ratelimit %s: want 5h=FRACTION@EPOCH,7d=FRACTION@EPOCH", spec)
		}
		if rel, ok := strings.CutPrefix(reset, "+"); ok {
			// Seconds from now: 2.1.330 drops a reset more than a year
			// ahead, or past.
			n, err := strconv.ParseInt(rel, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("-ratelimit %s: %v", spec, err)
			}
			reset = strconv.FormatInt(time.Now().Unix()+n, 10)
		}
		h.Set("anthropic-ratelimit-unified-"+win+"-utilization", util)
		h.Set("anthropic-ratelimit-unified-"+win+"-reset", reset)
	}
	return h, nil
}
