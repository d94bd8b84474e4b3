package doctor

import (
	"testing"

	"github.com/claude-account/claude-account/internal/claudever"
)

// TestFleetOf checks each release boundary of the background sessions row
// from both sides.
func TestFleetOf(t *testing.T) {
	for _, tc := range []struct {
		v                    claudever.Version
		bg, agents, noAPIKey bool
		needs                string
	}{
		{claudever.V(2, 0, 77), false, false, false, "2.1.141"},
		{claudever.V(2, 1, 140), false, false, false, "2.1.141"},
		{claudever.V(2, 1, 141), true, false, true, "2.1.145"},
		{claudever.V(2, 1, 144), true, false, true, "2.1.145"},
		{claudever.V(2, 1, 145), true, true, true, ""},
		{claudever.V(2, 1, 197), true, true, true, ""},
		{claudever.V(2, 1, 198), true, true, false, ""},
		{claudever.V(2, 1, 208), true, true, false, ""},
		{claudever.V(2, 1, 332), true, true, false, ""},
	} {
		f := FleetOf(claudever.Binary{Known: true, Version: tc.v})
		if f.Background != tc.bg || f.Agents != tc.agents || f.NoAPIKey != tc.noAPIKey || f.Needs != tc.needs || f.Summary == "" {
			t.Errorf("%s: got %+v, want background %v, agents %v, noApiKeyLogin %v, needs %q", tc.v, f, tc.bg, tc.agents, tc.noAPIKey, tc.needs)
		}
	}
	if f := FleetOf(claudever.Binary{Path: "/x/claude"}); f.Background || f.Summary == "" {
		t.Errorf("an unknown release: got %+v, want no background sessions claimed", f)
	}
}
