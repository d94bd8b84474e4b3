package conversation

import "testing"

func TestSessionFile(t *testing.T) {
	for name, want := range map[string]bool{
		"11111111-1111-4111-8111-111111111111.jsonl":     true,
		"2A6B0C1D-3E4F-4A5B-8C6D-7E8F9A0B1C2D.jsonl":     true,
		"11111111-1111-4111-8111-111111111111":           false,
		"11111111-1111-4111-8111-111111111111.old.jsonl": false,
		"agent-1b2c3d4e.jsonl":                           false,
		"backup.jsonl":                                   false,
		"11111111x1111-4111-8111-111111111111.jsonl":     false,
		"1111111g-1111-4111-8111-111111111111.jsonl":     false,
		".jsonl": false,
	} {
		if _, got := SessionFile(name); got != want {
			t.Errorf("SessionFile(%q) = %v, want %v", name, got, want)
		}
	}
}

func FuzzSessionFile(f *testing.F) {
	f.Add("11111111-1111-4111-8111-111111111111.jsonl")
	f.Add("agent-x.jsonl")
	f.Fuzz(func(t *testing.T, name string) {
		id, ok := SessionFile(name)
		if !ok {
			return
		}
		if id+".jsonl" != name || len(id) != 36 {
			t.Fatalf("SessionFile(%q) = %q", name, id)
		}
	})
}
