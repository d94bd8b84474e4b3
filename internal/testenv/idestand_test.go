package testenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

// clientFrame is a masked frame as a WebSocket client sends it.
func clientFrame(fin bool, op byte, payload []byte) []byte {
	f := wsFrame(op, payload)
	if !fin {
		f[0] &^= 0x80
	}
	hdr := 2
	switch f[1] {
	case 126:
		hdr = 4
	case 127:
		hdr = 10
	}
	mask := [4]byte{1, 2, 3, 4}
	out := append([]byte{}, f[:hdr]...)
	out[1] |= 0x80
	out = append(out, mask[:]...)
	for i, b := range f[hdr:] {
		out = append(out, b^mask[i%4])
	}
	return out
}

func TestReadMessage(t *testing.T) {
	long := bytes.Repeat([]byte("x"), 70000)
	var in []byte
	in = append(in, clientFrame(false, 0x1, []byte(`{"a":`))...)
	in = append(in, clientFrame(true, 0x9, []byte("p"))...) // a ping between fragments
	in = append(in, clientFrame(true, 0x0, []byte(`1}`))...)
	in = append(in, clientFrame(true, 0x1, long)...)
	r := bufio.NewReader(bytes.NewReader(in))
	var pinged []string
	ping := func(p []byte) { pinged = append(pinged, string(p)) }
	for _, want := range []struct {
		op  byte
		msg string
	}{{0x1, `{"a":1}`}, {0x1, string(long)}} {
		op, msg, err := readMessage(r, ping)
		if err != nil || op != want.op || string(msg) != want.msg {
			t.Fatalf("readMessage = %#x %.20q %v, want %#x %.20q", op, msg, err, want.op, want.msg)
		}
	}
	if len(pinged) != 1 || pinged[0] != "p" {
		t.Errorf("pings = %q, want the one between the fragments", pinged)
	}
	if _, _, err := readMessage(r, ping); err == nil {
		t.Fatal("readMessage at the end: no error")
	}
}

func TestMCPReply(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, `"protocolVersion":"2025-11-25"`},
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `"result":{"tools":[]}`},
		{`{"jsonrpc":"2.0","id":"x","method":"openDiff"}`, `"code":-32601`},
		{`{"jsonrpc":"2.0","method":"ide_connected","params":{"pid":1}}`, ``},
		{`not json`, ``},
	} {
		got := string(mcpReply([]byte(tc.in)))
		if tc.want == "" && got != "" || !bytes.Contains([]byte(got), []byte(tc.want)) {
			t.Errorf("mcpReply(%s) = %s, want %s in it", tc.in, got, tc.want)
		}
	}
}

// FuzzIDEStand feeds the stand-in's frame reader and its JSON-RPC answer any
// bytes: no panic, and every answer is JSON.
func FuzzIDEStand(f *testing.F) {
	f.Add(clientFrame(true, 0x1, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize"}`)))
	f.Add([]byte{0x81, 0xFF, 0, 0, 0, 0, 0, 0, 0, 9})
	f.Add([]byte(`{"id":null,"method":"ping"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for {
			if _, _, err := readMessage(r, func([]byte) {}); err != nil {
				break
			}
		}
		if out := mcpReply(data); out != nil && !json.Valid(out) {
			t.Fatalf("mcpReply(%q) = %q, not JSON", data, out)
		}
	})
}
