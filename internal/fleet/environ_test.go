package fleet

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestProviderDiff(t *testing.T) {
	base := map[string]string{"HOME": "/home/u", "PATH": "/bin", "ANTHROPIC_BASE_URL": "http://127.0.0.1:1",
		"ANTHROPIC_API_KEY": "k", "CLAUDE_CONFIG_DIR": "/home/u/.claude-max", "CLAUDE_CODE_TASK_LIST_ID": "wt1"}
	with := func(kv ...string) map[string]string {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "-" {
				delete(m, kv[i])
			} else {
				m[kv[i]] = kv[i+1]
			}
		}
		return m
	}
	for _, tc := range []struct {
		name   string
		launch map[string]string
		want   []string
	}{
		{"same", with(), nil},
		{"another address", with("ANTHROPIC_BASE_URL", "http://127.0.0.1:2"), []string{"ANTHROPIC_BASE_URL"}},
		{"address dropped", with("ANTHROPIC_BASE_URL", "-"), []string{"ANTHROPIC_BASE_URL"}},
		{"empty is unset", with("HTTPS_PROXY", ""), nil},
		{"a proxy", with("HTTPS_PROXY", "http://proxy:3128", "NO_PROXY", "localhost"), []string{"HTTPS_PROXY", "NO_PROXY"}},
		{"certificates", with("NODE_EXTRA_CA_CERTS", "/ca.pem"), []string{"NODE_EXTRA_CA_CERTS"}},
		{"bedrock", with("CLAUDE_CODE_USE_BEDROCK", "1", "AWS_REGION", "us-east-1"), []string{"AWS_REGION", "CLAUDE_CODE_USE_BEDROCK"}},
		{"skip auth", with("CLAUDE_CODE_SKIP_VERTEX_AUTH", "1"), []string{"CLAUDE_CODE_SKIP_VERTEX_AUTH"}},
		{"oauth token", with("CLAUDE_CODE_OAUTH_TOKEN", "t"), []string{"CLAUDE_CODE_OAUTH_TOKEN"}},
		// What is no provider's does not need another supervisor.
		{"other variables", with("PATH", "/usr/bin", "CLAUDE_CODE_TASK_LIST_ID", "wt2", "TERM", "xterm", "CLAUDE_JOB_DIR", "x"), nil},
	} {
		if got := ProviderDiff(base, tc.launch); !slices.Equal(got, tc.want) {
			t.Errorf("%s: ProviderDiff = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestParseEnviron(t *testing.T) {
	got := ParseEnviron([]byte("A=1\x00B=x=y\x00A=2\x00junk\x00=v\x00C=\x00"))
	want := map[string]string{"A": "1", "B": "x=y", "C": ""}
	if len(got) != len(want) {
		t.Fatalf("ParseEnviron = %q, want %q", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("ParseEnviron[%q] = %q, want %q", k, got[k], v)
		}
	}
}

func TestEnviron(t *testing.T) {
	if runtime.GOOS != "linux" {
		if _, err := Environ(os.Getpid()); err == nil {
			t.Fatal("Environ read a process's environment where only Linux shows it")
		}
		return
	}
	t.Setenv("FLEET_ENVIRON_TEST", "x")
	env, err := Environ(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	// The kernel keeps the environment the process started with.
	if env["PATH"] != os.Getenv("PATH") {
		t.Errorf("Environ(self)[PATH] = %q, want %q", env["PATH"], os.Getenv("PATH"))
	}
}

func FuzzParseEnviron(f *testing.F) {
	f.Add([]byte("A=1\x00B=2\x00"))
	f.Add([]byte("=\x00\x00A"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for k := range ParseEnviron(data) {
			if k == "" || strings.ContainsAny(k, "=\x00") {
				t.Fatalf("ParseEnviron(%q) has the name %q", data, k)
			}
		}
	})
}
