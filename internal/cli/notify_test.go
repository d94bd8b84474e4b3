package cli

import "testing"

func TestAccountOfID(t *testing.T) {
	for id, want := range map[string]string{
		"max-733572b3c04eb6b3":      "max",
		"max-work-733572b3c04eb6b3": "max-work",
		"max-733572b3c04eb6b3.2":    "max",
		"max":                       "max",
		"max.1":                     "max",
		"a-b":                       "a-b",
	} {
		if got := accountOfID(id); got != want {
			t.Errorf("accountOfID(%q) = %q, want %q", id, got, want)
		}
	}
}
