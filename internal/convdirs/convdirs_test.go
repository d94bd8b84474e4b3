package convdirs

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/claude-account/claude-account/internal/conversation"
)

func TestUnlistable(t *testing.T) {
	for path, want := range map[string]bool{
		"/home/u/.claude-max":          false,
		"/home/u/src/a b/.git/x":       false,
		"/home/u/src/a,b/.git/x":       true,
		" /home/u/x":                   true,
		"/home/u/x ":                   true,
		"/home/u/\u00e9t\u00e9/.git/x": false,
	} {
		if got := unlistable(path) != ""; got != want {
			t.Errorf("unlistable(%q) = %v, want %v", path, got, want)
		}
	}
}

// TestOfOnce: an account named twice, and a dir two accounts would list,
// are listed once; the value is the paths joined by commas.
func TestOfOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "projects", "-k"), 0o700); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if err := os.MkdirAll(filepath.Join(other, "projects"), 0o700); err != nil {
		t.Fatal(err)
	}
	l := Of([]conversation.Account{{Name: "max", Dir: dir}, {Name: "max", Dir: dir}, {Name: "work", Dir: other}})
	if got, want := l.Value(), dir+","+other; got != want {
		t.Errorf("Value() = %q, want %q", got, want)
	}
	if len(l.Left) != 0 {
		t.Errorf("Left = %v, want none", l.Left)
	}
}

// TestOfProjectsLink: an account dir whose projects is a link is not listed
// (a usage tool would follow it).
func TestOfProjectsLink(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, "projects")); err != nil {
		t.Fatal(err)
	}
	if l := Of([]conversation.Account{{Name: "max", Dir: dir}}); len(l.Dirs) != 0 {
		t.Errorf("Dirs = %v, want none", l.Dirs)
	}
}

func TestSetAside(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "claude-runtime[x]")
	for _, d := range []string{"max", "max.moved-20260101T000000Z", "max.moved-20260101T000000Z-2", "maxi.moved-1", "work.moved-1"} {
		if err := os.MkdirAll(filepath.Join(parent, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(parent, "max.moved-file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	got := setAside(filepath.Join(parent, "max"))
	want := []string{filepath.Join(parent, "max.moved-20260101T000000Z"), filepath.Join(parent, "max.moved-20260101T000000Z-2")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("setAside = %q, want %q", got, want)
	}
}
