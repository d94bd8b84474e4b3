package binding

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/claude-account/claude-account/internal/env"
)

func TestNearest(t *testing.T) {
	known := []string{"max", "pro", "work", "personal"}
	for name, want := range map[string]string{
		"mx":       "max",      // a letter dropped
		"maxx":     "max",      // one added
		"wrok":     "work",     // two swapped
		"wor":      "work",     // short names: one edit at most
		"perosnla": "personal", // longer names: two edits
		"nosuch":   "",         // far from every account
		"xy":       "",
		"max":      "", // the name itself is no suggestion
	} {
		if got := Nearest(name, known); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestKnownAccounts(t *testing.T) {
	home := t.TempDir()
	elsewhere := filepath.Join(t.TempDir(), "claude-work")
	for _, d := range []string{filepath.Join(home, ".claude-max"), filepath.Join(home, ".claude-pro"),
		filepath.Join(home, ".claude"), filepath.Join(home, ".claude-Bad"), elsewhere} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	// a file, not an account dir
	if err := os.WriteFile(filepath.Join(home, ".claude-notes"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	e := env.Env{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "cfg")}
	if err := os.MkdirAll(Dir(e), 0o755); err != nil {
		t.Fatal(err)
	}
	decl := "\"work\" = \"" + elsewhere + "\"\n\"gone\" = \"/nonexistent/claude-gone\"\n"
	if err := os.WriteFile(AccountsPath(e), []byte(decl), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := KnownAccounts(e), []string{"max", "pro", "work"}; !reflect.DeepEqual(got, want) {
		t.Errorf("KnownAccounts = %q, want %q", got, want)
	}
	if dir, err := AccountDir(e, "work"); err != nil || dir != elsewhere {
		t.Errorf("AccountDir(work) = %q, %v; want %q", dir, err, elsewhere)
	}
	if dir, err := AccountDir(e, "max"); err != nil || dir != filepath.Join(home, ".claude-max") {
		t.Errorf("AccountDir(max) = %q, %v", dir, err)
	}
}

func TestNearestCase(t *testing.T) {
	known := []string{"max", "maxx", "work"}
	for name, want := range map[string]string{"Max": "max", "MAX": "max", "WORK": "work", "Wrok": "work", "PRO": ""} {
		if got := Nearest(name, known); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", name, got, want)
		}
	}
}
