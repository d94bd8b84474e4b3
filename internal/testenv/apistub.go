package testenv

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// apistub [-proxy] [-hold FILE] [-tool COMMAND] [DIR]: a loopback stand-in for the Anthropic API, the
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
// permission; the request carrying its result gets the text answer.
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
		case args[0] == "-ratelimit" && len(args) > 1:
			h, err := rateLimitHeaders(args[1])
			ts.Check(err)
			stub.ratelimit, args = h, args[2:]
			continue
		}
		break
	}
	if neg || len(args) > 1 {
		ts.Fatalf("usage: apistub [-proxy] [-hold FILE] [-tool COMMAND] [-ratelimit 5h=F@EPOCH,7d=F@EPOCH] [DIR]")
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
	// -ratelimit: the unified rate-limit headers every answer carries
	ratelimit http.Header
	ca        *stubCA       // with -proxy
	tunnels   *connListener // with -proxy: the TLS ends of CONNECT tunnels
	mu        sync.Mutex
	n         int // /v1/messages requests
	tokens    int // OAuth token requests
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
	id := fmt.Sprintf("msg_stub_%03d", n)
	usage := map[string]int{"input_tokens": 1, "output_tokens": 2}
	block := map[string]any{"type": "text", "text": Reply}
	stop := "end_turn"
	if s.tool != "" && len(req.Tools) > 0 && !bytes.Contains(body, []byte(`"tool_result"`)) {
		block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_stub_%03d", n), "name": "Bash",
			"input": map[string]string{"command": s.tool, "description": "stub tool call"}}
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
// (default $WORK/api) — system prompt blocks, message contents and tool
// descriptions, decoded from JSON — written to OUT, one block a paragraph,
// for grep.
func apitext(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: apitext [DIR] OUT")
	}
	dir, out := filepath.Join(ts.Getenv("WORK"), "api"), ts.MkAbs(args[len(args)-1])
	if len(args) == 2 {
		dir = ts.MkAbs(args[0])
	}
	files := recorded(ts, dir)
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
			Tools []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(data, &req); err != nil {
			ts.Fatalf("apitext: %s: %v", f, err)
		}
		fmt.Fprintf(&b, "=== %s model=%s\n--- system\n%s\n", filepath.Base(f), req.Model, texts(req.System))
		for _, m := range req.Messages {
			fmt.Fprintf(&b, "--- %s\n%s\n", m.Role, texts(m.Content))
		}
		// Releases list commands, skills and agents in a tool's description
		// (Skill, SlashCommand, Task) or in the messages: both count.
		for _, t := range req.Tools {
			fmt.Fprintf(&b, "--- tool %s\n%s\n", t.Name, t.Description)
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

// recorded lists the /v1/messages requests apistub recorded in dir, in order.
func recorded(ts *testscript.TestScript, dir string) []string {
	files, err := filepath.Glob(filepath.Join(dir, "[0-9][0-9][0-9].json"))
	ts.Check(err)
	sort.Strings(files)
	return files
}

// apiauth [DIR] CREDENTIAL: every /v1/messages request apistub recorded in
// DIR (default $WORK/api) was made with CREDENTIAL — an OAuth access token
// (authorization: Bearer CREDENTIAL) or an API key (x-api-key) — and there was
// at least one. With !, none was made with it. The login Claude really used,
// whatever its release prints about it.
func apiauth(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: apiauth [DIR] CREDENTIAL")
	}
	dir, want := filepath.Join(ts.Getenv("WORK"), "api"), args[len(args)-1]
	if len(args) == 2 {
		dir = ts.MkAbs(args[0])
	}
	files := recorded(ts, dir)
	if len(files) == 0 && !neg {
		ts.Fatalf("apiauth: no request recorded in %s", dir)
	}
	var used []string
	with := 0
	for _, f := range files {
		data, err := os.ReadFile(strings.TrimSuffix(f, ".json") + ".headers.json")
		ts.Check(err)
		var h map[string]string
		ts.Check(json.Unmarshal(data, &h))
		cred := h["x-api-key"]
		if bearer, ok := strings.CutPrefix(h["authorization"], "Bearer "); ok {
			cred = bearer
		}
		if cred == want {
			with++
		}
		used = append(used, fmt.Sprintf("%s: %q", filepath.Base(f), cred))
	}
	switch {
	case neg && with > 0:
		ts.Fatalf("apiauth: %d request(s) in %s made with %s:\n%s", with, dir, want, strings.Join(used, "\n"))
	case !neg && with < len(files):
		ts.Fatalf("apiauth: not every request in %s made with %s:\n%s", dir, want, strings.Join(used, "\n"))
	}
	ts.Logf("%s", strings.Join(used, "\n"))
}

// headersJSON is a request's headers as one JSON object, names lower-cased.
func headersJSON(h http.Header) []byte {
	m := map[string]string{}
	for k, v := range h {
		m[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	data, _ := json.MarshalIndent(m, "", "  ")
	return append(data, '\n')
}

// token answers an OAuth token request (a refresh, or a login's code
// exchange) with a new pair of tokens, valid for a year, and records it.
func (s *apiStub) token(w http.ResponseWriter, body []byte) {
	s.mu.Lock()
	s.tokens++
	n := s.tokens
	s.mu.Unlock()
	_ = os.WriteFile(filepath.Join(s.dir, fmt.Sprintf("token-%03d.json", n)), body, 0o644)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"token_type": "Bearer", "expires_in": 365 * 24 * 3600, "scope": "user:inference user:profile",
		"access_token": fmt.Sprintf("sk-ant-oat01-%s-%d", filepath.Base(s.dir), n), "refresh_token": fmt.Sprintf("sk-ant-ort01-%s-%d", filepath.Base(s.dir), n),
		"account":      map[string]string{"uuid": "00000000-0000-4000-8000-000000000001", "email_address": "test@example.com"},
		"organization": map[string]string{"uuid": "00000000-0000-4000-8000-000000000002"},
	})
}

const stubProfile = `{"account": {"uuid": "00000000-0000-4000-8000-000000000001", "email": "test@example.com",
 "email_address": "test@example.com", "full_name": "Test", "display_name": "Test", "has_claude_max": true, "has_claude_pro": false,
 "created_at": "2025-01-01T00:00:00Z"},
 "organization": {"uuid": "00000000-0000-4000-8000-000000000002", "name": "Test", "organization_type": "claude_max",
 "billing_type": "stripe_subscription", "rate_limit_tier": "default_claude_max_20x", "has_extra_usage_enabled": false,
 "subscription_created_at": "2025-01-01T00:00:00Z"}}`

// tunnel answers a CONNECT: the client's TLS ends here, with a certificate
// for the host it asked for, and the requests inside come to ServeHTTP.
func (s *apiStub) tunnel(w http.ResponseWriter, r *http.Request) {
	if s.ca == nil {
		http.Error(w, "not a proxy", http.StatusMethodNotAllowed)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "cannot tunnel", http.StatusInternalServerError)
		return
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	_ = conn.SetDeadline(time.Time{})
	if _, err := rw.WriteString("HTTP/1.1 200 Connection established\r\n\r\n"); err != nil || rw.Flush() != nil {
		conn.Close()
		return
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	cfg := &tls.Config{NextProtos: []string{"http/1.1"}, GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
		return s.ca.leaf(host)
	}}
	s.tunnels.put(tls.Server(&bufferedConn{Conn: conn, r: rw.Reader}, cfg))
}

// bufferedConn is a hijacked connection whose first bytes may already sit in
// the server's reader.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// connListener hands the tunnels' connections to an http.Server.
type connListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func (l *connListener) put(c net.Conn) {
	select {
	case l.conns <- c:
	case <-l.done:
		c.Close()
	}
}

func (l *connListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *connListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *connListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// stubCA is the proxy's certificate authority, made for one script: Claude
// trusts it through NODE_EXTRA_CA_CERTS, nothing else does.
type stubCA struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	certPEM []byte
	mu      sync.Mutex
	leaves  map[string]*tls.Certificate
}

func newStubCA() (*stubCA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "claude-account apistub CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &stubCA{cert: cert, key: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		leaves: map[string]*tls.Certificate{}}, nil
}

// leaf is a certificate for host signed by the CA, made once.
func (ca *stubCA) leaf(host string) (*tls.Certificate, error) {
	ca.mu.Lock()
	defer ca.mu.Unlock()
	if c, ok := ca.leaves[host]; ok {
		return c, nil
	}
	if host == "" {
		return nil, errors.New("apistub: no host")
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(int64(len(ca.leaves) + 2)), Subject: pkix.Name{CommonName: host},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
	ca.leaves[host] = c
	return c, nil
}

// StubBrowser stands in for the user's browser (Claude opens $BROWSER URL to
// log in): it approves the login at once, as the user would, by sending
// Claude's local callback (the URL's redirect_uri) a code and the URL's
// state. The code is exchanged at the OAuth token endpoint, which is
// apistub -proxy's, so the tokens Claude then writes are the stub's.
func StubBrowser() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: stubbrowser URL")
		os.Exit(2)
	}
	u, err := url.Parse(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "stubbrowser:", err)
		os.Exit(1)
	}
	q := u.Query()
	cb, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || cb.Hostname() != "localhost" && cb.Hostname() != "127.0.0.1" {
		fmt.Fprintf(os.Stderr, "stubbrowser: %s has no local redirect_uri\n", os.Args[1])
		os.Exit(1)
	}
	cb.RawQuery = url.Values{"code": {"stub-code"}, "state": {q.Get("state")}}.Encode()
	// Claude answers with a redirect to its success page: not followed.
	c := &http.Client{Timeout: 60 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(cb.String())
	if err != nil {
		fmt.Fprintln(os.Stderr, "stubbrowser:", err)
		os.Exit(1)
	}
	resp.Body.Close()
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
