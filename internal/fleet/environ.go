package fleet

import (
	"slices"
	"strings"
)

// Provider reports whether an environment variable decides where and how
// Claude talks to the model's API: its address and login (ANTHROPIC_*, the
// cloud providers' CLAUDE_CODE_USE_*, AWS_*, AZURE_*, Google's), its proxy
// and the certificates it trusts. The supervisor keeps the environment it
// was started with and gives it to every session it hosts (DESIGN.md fact
// 20), so a launch whose provider differs needs a new supervisor. The names
// are those Claude 2.1.332 itself groups as such (its lists of gateway,
// proxy and certificate variables, read from its binary).
func Provider(name string) bool {
	for _, p := range []string{"ANTHROPIC_", "CLAUDE_CODE_USE_", "AWS_", "AZURE_", "CLOUDSDK_", "VERTEX_REGION_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	if strings.HasPrefix(name, "CLAUDE_CODE_SKIP_") && strings.HasSuffix(name, "_AUTH") {
		return true // CLAUDE_CODE_SKIP_BEDROCK_AUTH …: a gateway signs instead
	}
	return slices.Contains(providerNames, name)
}

var providerNames = []string{
	"CLAUDE_CODE_API_BASE_URL", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN",
	"CLAUDE_SECURESTORAGE_CONFIG_DIR",
	"HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "all_proxy", "no_proxy",
	"CLAUDE_CODE_HTTPS_PROXY", "CLAUDE_CODE_HTTP_PROXY", "CLAUDE_CODE_PROXY_RESOLVES_HOSTS",
	"NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "SSL_CERT_FILE", "SSL_CERT_DIR",
	"CLAUDE_CODE_CERT_STORE", "CLAUDE_CODE_CLIENT_CERT", "CLAUDE_CODE_CLIENT_KEY", "CLAUDE_CODE_CLIENT_KEY_PASSPHRASE",
	"CLOUD_ML_REGION", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT",
}

// ProviderDiff lists, sorted, the provider variables (Provider) whose values
// differ between a running supervisor's environment and a launch's; a
// variable set to "" counts as unset, as Claude reads it.
func ProviderDiff(running, launch map[string]string) []string {
	var diff []string
	seen := map[string]bool{}
	for _, env := range []map[string]string{running, launch} {
		for k := range env {
			if seen[k] || !Provider(k) {
				continue
			}
			seen[k] = true
			if running[k] != launch[k] {
				diff = append(diff, k)
			}
		}
	}
	slices.Sort(diff)
	return diff
}

// ParseEnviron reads a process's environment as the kernel keeps it
// (/proc/PID/environ: NAME=VALUE entries ended by NUL), the first of a
// name winning, as getenv finds it.
func ParseEnviron(data []byte) map[string]string {
	env := map[string]string{}
	for _, kv := range strings.Split(string(data), "\x00") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if _, dup := env[k]; !dup {
			env[k] = v
		}
	}
	return env
}
