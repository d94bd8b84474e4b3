package testenv

import (
	"bufio"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// IDEStand stands in for an IDE with Claude Code's extension, as the
// extensions do it: a loopback WebSocket server speaking MCP, announced by a
// lock file <port>.lock in the lock dir (~/.claude/ide), holding its pid, the
// workspace folders, its name, "transport": "ws" and an auth token Claude
// must send as X-Claude-Code-Ide-Authorization. It then runs the command as
// the IDE's terminal does, as its child (Claude checks, in an IDE terminal,
// that the lock's pid is its ancestor) with TERM_PROGRAM=vscode,
// CLAUDE_CODE_SSE_PORT and ENABLE_IDE_INTEGRATION set, and exits with the
// command's status, its lock file removed.
//
// Every connection and every message Claude sends is appended to the log
// file as one JSON line: {"event":"connect","auth":true|false}, then the
// messages themselves.
//
//	usage: idestand -lockdir DIR -workspace DIR -log FILE -- COMMAND [ARG…]
func IDEStand() {
	fs := flag.NewFlagSet("idestand", flag.ExitOnError)
	lockDir := fs.String("lockdir", "", "the dir the lock file goes in (~/.claude/ide)")
	workspace := fs.String("workspace", "", "the IDE's workspace folder")
	logPath := fs.String("log", "", "the file every connection and message is appended to")
	_ = fs.Parse(os.Args[1:])
	if *lockDir == "" || *workspace == "" || *logPath == "" || fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: idestand -lockdir DIR -workspace DIR -log FILE -- COMMAND [ARG…]")
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fatalf("idestand: %v", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	token := fmt.Sprintf("idestand-%d", os.Getpid())
	logf, err := os.OpenFile(*logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fatalf("idestand: %v", err)
	}
	s := &ideServer{token: token, log: logf}
	go func() { _ = http.Serve(ln, s) }()

	lock, _ := json.Marshal(map[string]any{
		"pid": os.Getpid(), "workspaceFolders": []string{*workspace}, "ideName": "Visual Studio Code",
		"transport": "ws", "runningInWindows": false, "authToken": token,
	})
	if err := os.MkdirAll(*lockDir, 0o700); err != nil {
		fatalf("idestand: %v", err)
	}
	lockPath := filepath.Join(*lockDir, strconv.Itoa(port)+".lock")
	if err := os.WriteFile(lockPath, lock, 0o600); err != nil {
		fatalf("idestand: %v", err)
	}
	cmd := exec.Command(fs.Arg(0), fs.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "TERM_PROGRAM=vscode", "CLAUDE_CODE_SSE_PORT="+strconv.Itoa(port), "ENABLE_IDE_INTEGRATION=true")
	err = cmd.Run()
	os.Remove(lockPath)
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	case err != nil:
		fatalf("idestand: %v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

// ideServer answers Claude's WebSocket connection.
type ideServer struct {
	token string
	mu    sync.Mutex
	log   *os.File
}

func (s *ideServer) record(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log.Write(append(append([]byte{}, line...), '\n'))
}

// wsGUID is RFC 6455's, which the accept key is derived with.
const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

func (s *ideServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("Sec-WebSocket-Key")
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") || key == "" {
		http.Error(w, "a WebSocket only", http.StatusBadRequest)
		return
	}
	auth := r.Header.Get("X-Claude-Code-Ide-Authorization") == s.token
	ev, _ := json.Marshal(struct {
		Event string `json:"event"`
		Auth  bool   `json:"auth"`
	}{"connect", auth})
	s.record(ev)
	if !auth {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "no hijack", http.StatusInternalServerError)
		return
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	sum := sha1.Sum([]byte(key + wsGUID))
	resp := "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " +
		base64.StdEncoding.EncodeToString(sum[:]) + "\r\n"
	for _, p := range strings.Split(r.Header.Get("Sec-WebSocket-Protocol"), ",") {
		if strings.TrimSpace(p) == "mcp" {
			resp += "Sec-WebSocket-Protocol: mcp\r\n"
		}
	}
	if _, err := rw.WriteString(resp + "\r\n"); err != nil || rw.Flush() != nil {
		return
	}
	var wmu sync.Mutex
	send := func(op byte, payload []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		_, err := conn.Write(wsFrame(op, payload))
		return err
	}
	for {
		op, msg, err := readMessage(rw.Reader, func(p []byte) { _ = send(0xA, p) })
		if err != nil {
			return
		}
		switch op {
		case 0x8: // close
			_ = send(0x8, msg)
			return
		case 0x1, 0x2:
			s.record(msg)
			if reply := mcpReply(msg); reply != nil {
				if send(0x1, reply) != nil {
					return
				}
			}
		}
	}
}

// readMessage reads one whole message (its fragments joined), unmasking
// it, or a close frame (op 0x8); a ping, which may come between fragments,
// is handed to ping, and a pong is dropped.
func readMessage(r *bufio.Reader, ping func([]byte)) (op byte, msg []byte, err error) {
	for {
		fin, fop, payload, err := readFrame(r)
		if err != nil {
			return 0, nil, err
		}
		switch {
		case fop == 0x8:
			return fop, payload, nil
		case fop == 0x9:
			ping(payload)
			continue
		case fop >= 0x8:
			continue
		case fop != 0:
			op = fop
		}
		msg = append(msg, payload...)
		if fin {
			return op, msg, nil
		}
	}
}

// maxFrame bounds what one frame may claim to hold: a stand-in reads no
// gigabytes on a broken length.
const maxFrame = 64 << 20

func readFrame(r io.Reader) (fin bool, op byte, payload []byte, err error) {
	var h [2]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return false, 0, nil, err
	}
	fin, op = h[0]&0x80 != 0, h[0]&0x0F
	masked := h[1]&0x80 != 0
	n := uint64(h[1] & 0x7F)
	switch n {
	case 126:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return false, 0, nil, err
		}
		n = uint64(binary.BigEndian.Uint16(b[:]))
	case 127:
		var b [8]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return false, 0, nil, err
		}
		n = binary.BigEndian.Uint64(b[:])
	}
	if n > maxFrame {
		return false, 0, nil, fmt.Errorf("frame of %d bytes", n)
	}
	var mask [4]byte
	if masked {
		if _, err := io.ReadFull(r, mask[:]); err != nil {
			return false, 0, nil, err
		}
	}
	payload = make([]byte, n)
	if _, err := io.ReadFull(r, payload); err != nil {
		return false, 0, nil, err
	}
	if masked {
		for i := range payload {
			payload[i] ^= mask[i%4]
		}
	}
	return fin, op, payload, nil
}

// wsFrame is one unmasked, final frame, as a server sends them.
func wsFrame(op byte, payload []byte) []byte {
	b := []byte{0x80 | op}
	switch n := len(payload); {
	case n < 126:
		b = append(b, byte(n))
	case n <= 0xFFFF:
		b = append(b, 126, byte(n>>8), byte(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	return append(b, payload...)
}

// mcpReply answers a JSON-RPC request as an IDE's MCP server would, enough
// for Claude to connect: initialize, the empty lists, ping; any other
// request gets "method not found"; a notification gets nothing.
func mcpReply(msg []byte) []byte {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	if json.Unmarshal(msg, &req) != nil || len(req.ID) == 0 || req.Method == "" {
		return nil
	}
	var result any
	switch req.Method {
	case "initialize":
		v := req.Params.ProtocolVersion
		if v == "" {
			v = "2025-06-18"
		}
		result = map[string]any{"protocolVersion": v, "capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo": map[string]any{"name": "idestand", "version": "1.0.0"}}
	case "tools/list":
		result = map[string]any{"tools": []any{}}
	case "prompts/list":
		result = map[string]any{"prompts": []any{}}
	case "resources/list":
		result = map[string]any{"resources": []any{}}
	case "ping":
		result = map[string]any{}
	default:
		out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID,
			"error": map[string]any{"code": -32601, "message": "method not found: " + req.Method}})
		return out
	}
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	return out
}
