package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestRealRuns checks which scripts TestRealClaude runs on which Claude:
// every script on each of CLAUDE_REAL_BINS (or CLAUDE_REAL_BIN), only the
// fleet and doctor ones on each of CLAUDE_REAL_FLEET_BINS.
func TestRealRuns(t *testing.T) {
	for _, tc := range []struct {
		bins, bin, fleet string
		want             []realRun
	}{
		{"", "", "", nil},
		{"", "/c/332", "", []realRun{{bin: "/c/332"}}},
		{"/c/077:/c/332", "/c/ignored", "", []realRun{{bin: "/c/077"}, {bin: "/c/332"}}},
		{"/c/077:/c/332", "", "/c/197", []realRun{{bin: "/c/077"}, {bin: "/c/332"}, {bin: "/c/197", fleetOnly: true}}},
		{"", "", "/c/197:/c/150", []realRun{{bin: "/c/197", fleetOnly: true}, {bin: "/c/150", fleetOnly: true}}},
	} {
		if got := realRuns(tc.bins, tc.bin, tc.fleet); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("realRuns(%q, %q, %q) = %+v, want %+v", tc.bins, tc.bin, tc.fleet, got, tc.want)
		}
	}
	files := []string{"../../testscripts/real-claude-ps.txtar", "../../testscripts/real-claude-fleet-agents.txtar",
		"../../testscripts/real-claude-doctor-rows.txtar", "../../testscripts/real-claude-doctor-fleet.txtar",
		"../../testscripts/real-claude-session.txtar", "../../testscripts/real-claude-fleets.txtar"}
	var fleet []string
	for _, f := range files {
		if fleetScript(f) {
			fleet = append(fleet, filepath.Base(f))
		}
	}
	if want := []string{"real-claude-fleet-agents.txtar", "real-claude-doctor-rows.txtar", "real-claude-doctor-fleet.txtar"}; !slices.Equal(fleet, want) {
		t.Errorf("fleet scripts: got %v, want %v", fleet, want)
	}
}

// TestCIVersions checks .ci/claude-code-versions reads as .ci/run reads it:
// a release a line, optionally followed by "fleet" (its real-Claude run is
// only the fleet scripts); anything else would be skipped or misread there.
func TestCIVersions(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".ci", "claude-code-versions"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip(".ci/claude-code-versions is not in this copy of the tree (nix flake check copies the Go files)")
	}
	if err != nil {
		t.Fatal(err)
	}
	release := regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+$`)
	all := 0
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch {
		case !release.MatchString(f[0]):
			t.Errorf("line %d: %q is not a release X.Y.Z", i+1, f[0])
		case len(f) > 2 || len(f) == 2 && f[1] != "fleet":
			t.Errorf("line %d: %q: after the release only \"fleet\" may follow", i+1, line)
		case len(f) == 1:
			all++
		}
	}
	if all == 0 {
		t.Error("no release runs every real-Claude script")
	}
}
