package testenv

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"time"
)

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

// stubRoles answers /api/oauth/claude_cli/roles for the profile's
// organization.
const stubRoles = `{"organization_role": "admin", "workspace_role": null, "organization_name": "Test"}`

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
