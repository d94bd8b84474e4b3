package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

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
