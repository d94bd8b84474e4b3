package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// TestUnwarnedConcurrent: fifty launches at once, each in its own config dir
// with its own finding, must all find their entry in warned.json afterwards.
func TestUnwarnedConcurrent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "warned.json")
	lockDir := filepath.Join(dir, "locks")
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cd := fmt.Sprintf("/ws/%d", i)
			got := Unwarned(path, lockDir, Group{cd, []Finding{{ID: "read-only", Message: "problem " + cd}}})
			if len(got[0]) != 1 {
				t.Errorf("%s: %d findings shown, want 1", cd, len(got))
			}
		}(i)
	}
	wg.Wait()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string][]string{}
	if err := json.Unmarshal(data, &seen); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 50 {
		t.Fatalf("warned.json keeps %d of 50 config dirs: concurrent launches lost each other's entries", len(seen))
	}
	// Once shown, not again; gone, then back: shown again.
	if got := Unwarned(path, lockDir, Group{"/ws/1", []Finding{{Message: "problem /ws/1"}}}); len(got[0]) != 0 {
		t.Errorf("a finding shown before was shown again")
	}
	Unwarned(path, lockDir, Group{"/ws/1", nil})
	if got := Unwarned(path, lockDir, Group{"/ws/1", []Finding{{Message: "problem /ws/1"}}}); len(got[0]) != 1 {
		t.Errorf("a finding that came back was not shown")
	}
	// Two causes at once, each its own: one new, one seen.
	got := Unwarned(path, lockDir, Group{"/ws/1", []Finding{{Message: "problem /ws/1"}}}, Group{"claude max", []Finding{{Message: "old release"}}})
	if len(got) != 2 || len(got[0]) != 0 || len(got[1]) != 1 {
		t.Errorf("two groups: got %v, want none for /ws/1 and one for the release", got)
	}
}
