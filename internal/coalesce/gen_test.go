package coalesce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"sync"
)

// Types shaped like the .claude.json that Claude Code 2.x writes, in its key
// order; most of the bytes are prompt history under "projects".
type (
	genDoc struct {
		NumStartups            int                    `json:"numStartups"`
		InstallMethod          string                 `json:"installMethod"`
		AutoUpdates            bool                   `json:"autoUpdates"`
		TipsHistory            map[string]int         `json:"tipsHistory"`
		PromptQueueUseCount    int                    `json:"promptQueueUseCount"`
		UserID                 string                 `json:"userID"`
		FirstStartTime         string                 `json:"firstStartTime"`
		Projects               map[string]genProject  `json:"projects"`
		OAuthAccount           map[string]any         `json:"oauthAccount"`
		HasCompletedOnboarding bool                   `json:"hasCompletedOnboarding"`
		LastOnboardingVersion  string                 `json:"lastOnboardingVersion"`
		CachedChangelog        string                 `json:"cachedChangelog"`
		MCPServers             map[string]genServer   `json:"mcpServers"`
		Extra                  map[string]interface{} `json:"s1mAccessCache"`
	}
	genProject struct {
		AllowedTools               []string       `json:"allowedTools"`
		History                    []genEntry     `json:"history"`
		MCPContextURIs             []string       `json:"mcpContextUris"`
		MCPServers                 map[string]any `json:"mcpServers"`
		EnabledMcpjsonServers      []string       `json:"enabledMcpjsonServers"`
		DisabledMcpjsonServers     []string       `json:"disabledMcpjsonServers"`
		HasTrustDialogAccepted     bool           `json:"hasTrustDialogAccepted"`
		ProjectOnboardingSeenCount int            `json:"projectOnboardingSeenCount"`
		LastCost                   float64        `json:"lastCost"`
		LastAPIDuration            int            `json:"lastAPIDuration"`
		LastSessionID              string         `json:"lastSessionId"`
	}
	genEntry struct {
		Display        string               `json:"display"`
		PastedContents map[string]genPasted `json:"pastedContents"`
	}
	genPasted struct {
		ID      int    `json:"id"`
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	genServer struct {
		Type    string            `json:"type,omitempty"`
		Command string            `json:"command,omitempty"`
		Args    []string          `json:"args,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		URL     string            `json:"url,omitempty"`
	}
)

var words = strings.Fields(`fix the login bug in auth.go and add a test for it
refactor the "session" handling so that it does not leak goroutines when
the context is cancelled; run go test ./... and make sure CI passes
explain why this panics: runtime error: index out of range [3] with length 3
écrire la documentation ünïcödé 日本語 \ backslash	tab`)

func genText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		if b.Len() > 0 {
			if r.Intn(12) == 0 {
				b.WriteByte('\n')
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(words[r.Intn(len(words))])
	}
	return b.String()
}

// genServers is the mcpServers value used as the managed key in tests and
// benchmarks.
var genServers = map[string]genServer{
	"github":  {Command: "github-mcp-server", Args: []string{"stdio"}, Env: map[string]string{"GITHUB_TOKEN": "ghp_x"}},
	"context": {Type: "http", URL: "https://mcp.context7.com/mcp"},
	"fs":      {Type: "stdio", Command: "mcp-fs", Args: []string{"--root", "/home/u/src"}},
}

var (
	genOnce  sync.Once
	genCache []byte
)

// genClaudeJSON returns a pretty-printed .claude.json of about 20 MB; callers
// must not modify it.
func genClaudeJSON() []byte {
	genOnce.Do(func() { genCache = genDocument(20 << 20) })
	return genCache
}

func genDocument(size int) []byte {
	r := rand.New(rand.NewSource(1))
	d := genDoc{
		NumStartups:    412,
		InstallMethod:  "native",
		AutoUpdates:    true,
		TipsHistory:    map[string]int{"new-user-warmup": 7, "plan-mode-for-complex-tasks": 30},
		UserID:         "4f1c0c1b0e5d4a7e9f1c0c1b0e5d4a7e9f1c0c1b0e5d4a7e9f1c0c1b0e5d4a7e",
		FirstStartTime: "2025-06-01T09:12:44.123Z",
		Projects:       map[string]genProject{},
		OAuthAccount: map[string]any{
			"accountUuid": "0b8f", "emailAddress": "u@example.com", "organizationUuid": "9a1d",
		},
		HasCompletedOnboarding: true,
		LastOnboardingVersion:  "2.1.328",
		CachedChangelog:        genText(r, 40000),
		MCPServers:             genServers,
		Extra:                  map[string]any{},
	}
	// Each project holds about 70 KB of pretty-printed history.
	for p := 0; p*70_000 < size; p++ {
		proj := genProject{
			AllowedTools:           []string{},
			MCPContextURIs:         []string{},
			MCPServers:             map[string]any{},
			EnabledMcpjsonServers:  []string{},
			DisabledMcpjsonServers: []string{},
			HasTrustDialogAccepted: true,
			LastCost:               r.Float64() * 10,
			LastAPIDuration:        r.Intn(100000),
			LastSessionID:          fmt.Sprintf("%08x-aaaa-bbbb-cccc-%012x", r.Uint32(), r.Int63()),
		}
		for h := 0; h < 100; h++ {
			e := genEntry{Display: genText(r, 20+r.Intn(600)), PastedContents: map[string]genPasted{}}
			if r.Intn(5) == 0 {
				e.PastedContents["1"] = genPasted{ID: 1, Type: "text", Content: genText(r, 200+r.Intn(2000))}
			}
			proj.History = append(proj.History, e)
		}
		d.Projects[fmt.Sprintf("/home/u/src/project-%04d", p)] = proj
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// genServersJSON is genServers as a compact managed value.
func genServersJSON() []byte {
	b, err := json.Marshal(genServers)
	if err != nil {
		panic(err)
	}
	return b
}
