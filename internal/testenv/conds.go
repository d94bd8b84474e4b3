package testenv

import (
	"fmt"
	"os"
	"os/exec"
	goruntime "runtime"
	"strings"

	"github.com/claude-account/claude-account/internal/claudever"
)

// Condition answers the scripts' [conditions]; an unknown one is an error,
// so a typo cannot silently skip a test. With the stub claude, [realclaude] is
// false and [claude:X.Y.Z] compares with StubVersion.
func Condition(cond string) (bool, error) {
	return condition(cond, "", StubVersion)
}

// RealCondition answers them for a run against the real Claude Code at bin,
// release v: [realclaude] holds, [claude:X.Y.Z] holds when v is X.Y.Z or newer.
func RealCondition(bin string, v claudever.Version) func(string) (bool, error) {
	ok := exec.Command(bin, "--version").Run() == nil
	return func(cond string) (bool, error) {
		if cond == "realclaude" {
			return ok, nil
		}
		return condition(cond, bin, v.String())
	}
}

func condition(cond, real, version string) (bool, error) {
	if want, ok := strings.CutPrefix(cond, "claude:"); ok {
		w, ok := claudever.Parse(want)
		if !ok || w.String() != want {
			return false, fmt.Errorf("condition %q: want claude:X.Y.Z", cond)
		}
		v, _ := claudever.Parse(version)
		return v.AtLeast(w), nil
	}
	switch cond {
	case "linux":
		return goruntime.GOOS == "linux", nil
	case "root":
		return os.Geteuid() == 0, nil
	case "unshare":
		// A private mount namespace lets a test make a read-only mount.
		return exec.Command("unshare", "-m", "true").Run() == nil, nil
	case "realclaude":
		return real != "", nil
	case "ccusage":
		// ccusage from npm (.ci/run installs it pinned and sets
		// CCUSAGE_BIN; RealSetup passes it to the script).
		return os.Getenv("CCUSAGE_BIN") != "", nil
	case "agentsdk":
		// The Agent SDK from npm (.ci/run installs it and sets
		// CLAUDE_AGENT_SDK), and node to run it.
		_, err := exec.LookPath("node")
		return AgentSDK() != "" && err == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

// AgentSDK is the directory .ci/run installed @anthropic-ai/claude-agent-sdk
// into ($CLAUDE_AGENT_SDK: its node_modules is there), "" when unset or not
// there. Scripts guarded by [agentsdk] find it as $CLAUDE_AGENT_SDK.
func AgentSDK() string {
	dir := os.Getenv("CLAUDE_AGENT_SDK")
	if dir == "" {
		return ""
	}
	if _, err := os.Stat(dir + "/node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs"); err != nil {
		return ""
	}
	return dir
}
