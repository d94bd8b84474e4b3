package binding

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/claude-account/claude-account/internal/account"
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
	store := filepath.Join(t.TempDir(), "store-account.toml")
	for _, d := range []string{filepath.Join(home, ".claude-max"), filepath.Join(home, ".claude-pro"),
		filepath.Join(home, ".claude-nix"), filepath.Join(home, ".claude"), filepath.Join(home, ".claude-Bad"),
		filepath.Join(home, ".claude-backup"), filepath.Join(home, ".claude-code-router"), elsewhere} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".claude-max", ".claude-pro", ".claude-Bad"} {
		if err := os.WriteFile(filepath.Join(home, f, account.FileName), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// home-manager's account.toml: a link into the Nix store
	if err := os.WriteFile(store, []byte("name = \"nix\"\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(store, filepath.Join(home, ".claude-nix", account.FileName)); err != nil {
		t.Fatal(err)
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
	names, skipped := FindAccounts(e)
	if want := []string{"max", "nix", "pro", "work"}; !reflect.DeepEqual(names, want) {
		t.Errorf("FindAccounts names %q, want %q", names, want)
	}
	if got := KnownAccounts(e); !reflect.DeepEqual(got, names) {
		t.Errorf("KnownAccounts = %q, want what FindAccounts names, %q", got, names)
	}
	wantSkipped := []Skipped{
		{Dir: filepath.Join(home, ".claude-Bad"), Name: "Bad", Reason: BadName},
		{Dir: filepath.Join(home, ".claude-backup"), Name: "backup", Reason: NoAccountFile},
		{Dir: filepath.Join(home, ".claude-code-router"), Name: "code-router", Reason: NoAccountFile},
	}
	if !reflect.DeepEqual(skipped, wantSkipped) {
		t.Errorf("FindAccounts skipped %+v, want %+v", skipped, wantSkipped)
	}
	if dir, err := AccountDir(e, "work"); err != nil || dir != elsewhere {
		t.Errorf("AccountDir(work) = %q, %v; want %q", dir, err, elsewhere)
	}
	if dir, err := AccountDir(e, "max"); err != nil || dir != filepath.Join(home, ".claude-max") {
		t.Errorf("AccountDir(max) = %q, %v", dir, err)
	}
}

func TestAccountFileName(t *testing.T) {
	if accountFile != account.FileName {
		t.Fatalf("accountFile = %q, account.FileName = %q", accountFile, account.FileName)
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
