package notify

import (
	"errors"
	"slices"
	"testing"
)

func finds(names ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		if slices.Contains(names, name) {
			return "/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
}

// TestCommand is the notifier each system gets: osascript on macOS,
// notify-send elsewhere, none without them.
func TestCommand(t *testing.T) {
	for _, tc := range []struct {
		goos  string
		finds []string
		want  []string
	}{
		{"linux", []string{"notify-send", "osascript"}, []string{"/bin/notify-send", "--app-name=claude-account", "T", "B"}},
		{"linux", []string{"osascript"}, nil},
		{"linux", nil, nil},
		{"freebsd", []string{"notify-send"}, []string{"/bin/notify-send", "--app-name=claude-account", "T", "B"}},
		{"darwin", []string{"osascript", "notify-send"}, []string{"/bin/osascript", "-e", `display notification "B" with title "T"`}},
		{"darwin", []string{"notify-send"}, nil},
	} {
		if got := Command(tc.goos, finds(tc.finds...), "T", "B"); !slices.Equal(got, tc.want) {
			t.Errorf("Command(%s, %v) = %q, want %q", tc.goos, tc.finds, got, tc.want)
		}
	}
}

// TestCommandInert: names from a repository can neither act on a terminal
// nor leave AppleScript's string literal nor become notification markup.
func TestCommandInert(t *testing.T) {
	title, body := "Claude waits: max · a\"b\\c\x1b]0;x\a", []string{"It\u202eended.", "~/src/<b>&"}
	got := Command("darwin", finds("osascript"), title, body...)
	want := `display notification "It\\u202eended.` + "\n" + `~/src/<b>&" with title "Claude waits: max · a\"b\\c\\x1b]0;x\\x07"`
	if got[2] != want {
		t.Errorf("osascript -e %s\nwant        %s", got[2], want)
	}
	got = Command("linux", finds("notify-send"), title, body...)
	if got[2] != `Claude waits: max · a"b\c\x1b]0;x\x07` || got[3] != "It\\u202eended.\n~/src/&lt;b&gt;&amp;" {
		t.Errorf("notify-send %q", got[1:])
	}
}

func TestAppleString(t *testing.T) {
	for in, want := range map[string]string{``: `""`, `a`: `"a"`, `"`: `"\""`, `\`: `"\\"`, `\"`: `"\\\""`, `" & do shell script "x`: `"\" & do shell script \"x"`} {
		if got := AppleString(in); got != want {
			t.Errorf("AppleString(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestCommandOneLineEach: a newline or another control character inside the
// title or a body line (a directory named so) is escaped, never a line of
// its own; the body's lines are the caller's.
func TestCommandOneLineEach(t *testing.T) {
	got := Command("linux", finds("notify-send"), "Claude waits: max · out\nfake\u0085", "It ended.", "/w/new\nline\r\x1b[2J")
	if want := []string{"/bin/notify-send", "--app-name=claude-account", `Claude waits: max · out\nfake\x85`, "It ended.\n" + `/w/new\nline\r\x1b[2J`}; !slices.Equal(got, want) {
		t.Errorf("Command = %q\nwant      %q", got, want)
	}
}
