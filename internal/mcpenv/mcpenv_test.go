package mcpenv

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

func TestParse(t *testing.T) {
	refs, command, err := Parse([]string{"A=/run/a", "B=/x=y", "--", "srv", "--", "-v"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Ref{{"A", "/run/a"}, {"B", "/x=y"}}; !reflect.DeepEqual(refs, want) {
		t.Errorf("refs = %v, want %v", refs, want)
	}
	if want := []string{"srv", "--", "-v"}; !reflect.DeepEqual(command, want) {
		t.Errorf("command = %v, want %v", command, want)
	}
	if refs, command, err := Parse([]string{"--", "srv"}); err != nil || refs != nil || len(command) != 1 {
		t.Errorf("no refs: %v %v %v", refs, command, err)
	}
	for args, want := range map[string]string{
		"A=/a srv":   "no -- before",
		"A=/a --":    "no command after --",
		"A --":       `"A" is not VAR=FILE`,
		"=/a -- s":   `"=/a" is not VAR=FILE`,
		"A=rel -- s": `the file of A, "rel", is not an absolute path`,
		"":           "no -- before",
	} {
		_, _, err := Parse(strings.Fields(args))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want %q", args, err, want)
		}
	}
}

func TestValue(t *testing.T) {
	for data, want := range map[string]string{"s3cret\n\n": "s3cret", "a\nb\n": "a\nb", "": "", " x ": " x "} {
		if got, err := Value(Ref{"A", "/a"}, []byte(data)); err != nil || got != want {
			t.Errorf("Value(%q) = %q, %v; want %q", data, got, err, want)
		}
	}
	if _, err := Value(Ref{"A", "/a"}, []byte("a\x00b")); err == nil || strings.Contains(err.Error(), "a\x00b") {
		t.Errorf("NUL: %v", err)
	}
}

func TestReadErrorsNameVarAndFileNotContent(t *testing.T) {
	dir := t.TempDir()
	_, err := Read(Ref{"TOKEN", filepath.Join(dir, "missing")})
	if err == nil || !strings.Contains(err.Error(), "cannot read the file of TOKEN, "+dir+"/missing: no such file or directory; deploy the secret") {
		t.Errorf("missing: %v", err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, MaxEntry+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(Ref{"T", big}); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("big: %v", err)
	}
}

func TestEnviron(t *testing.T) {
	read := func(r Ref) (string, error) { return "v-" + r.Var, nil }
	got, err := Environ([]string{"PATH=/bin", "A=old"}, []Ref{{"A", "/a"}, {"B", "/b"}}, read)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"PATH=/bin", "A=v-A", "B=v-B"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Environ = %v, want %v", got, want)
	}
	boom := errors.New("boom")
	if _, err := Environ(nil, []Ref{{"A", "/a"}}, func(Ref) (string, error) { return "", boom }); err != boom {
		t.Errorf("err = %v", err)
	}
}

// FuzzParse: Parse never panics, and what it accepts is a command and
// references whose files are absolute and whose names hold no '='.
func FuzzParse(f *testing.F) {
	f.Add("A=/run/a\x1fB=/b\x1f--\x1fsrv\x1f-v")
	f.Add("--")
	f.Add("A=rel\x1f--\x1fx")
	f.Fuzz(func(t *testing.T, joined string) {
		refs, command, err := Parse(strings.Split(joined, "\x1f"))
		if err != nil {
			return
		}
		if len(command) == 0 || command[0] == "" {
			t.Fatalf("accepted an empty command: %q", joined)
		}
		for _, r := range refs {
			if r.Var == "" || strings.Contains(r.Var, "=") || !filepath.IsAbs(r.File) {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}

// TestValueFitsOneEnvironmentString: "VAR=secret" and its NUL within
// MaxEntry is taken, one byte more is refused naming the variable; trailing
// newlines do not count.
func TestValueFitsOneEnvironmentString(t *testing.T) {
	ref := Ref{"TOKEN", "/run/secrets/t"}
	fits := strings.Repeat("a", MaxEntry-len("TOKEN=")-1)
	if got, err := Value(ref, []byte(fits+"\n\n")); err != nil || got != fits {
		t.Errorf("the longest secret: %v", err)
	}
	_, err := Value(ref, []byte(fits+"a"))
	if err == nil || !strings.Contains(err.Error(), "the file of TOKEN, /run/secrets/t, is too long") || strings.Contains(err.Error(), fits) {
		t.Errorf("one byte more: %.200v", err)
	}
}

func TestTooBigNamesSecretsWithSizes(t *testing.T) {
	environ := []string{"PATH=/bin", "A=" + strings.Repeat("a", 100000), "B=b"}
	err := tooBig("/bin/srv", environ, []Ref{{"A", "/a"}, {"B", "/b"}, {"A", "/a2"}})
	want := "cannot start the MCP server's command /bin/srv: its arguments and environment, with the secrets A (98 KiB) and B (1 KiB), are more than the system starts a program with; shorten the secrets, or pass the server their files' paths instead"
	if err == nil || err.Error() != want {
		t.Errorf("tooBig = %v\nwant %s", err, want)
	}
	if err := tooBig("/bin/srv", environ, nil); err == nil || !strings.HasSuffix(err.Error(), "are more than the system starts a program with; shorten them") {
		t.Errorf("no secrets: %v", err)
	}
}

func TestAnd(t *testing.T) {
	for want, words := range map[string][]string{"": nil, "A": {"A"}, "A and B": {"A", "B"}, "A, B and C": {"A", "B", "C"}} {
		if got := and(words); got != want {
			t.Errorf("and(%q) = %q, want %q", words, got, want)
		}
	}
}

// TestReadOnlyRegularFiles: a FIFO without a writer is refused at once (not
// waited on), so are a directory and a device; a link to a file is read.
func TestReadOnlyRegularFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{fifo: "is a FIFO, not a regular file", dir: "is a directory", os.DevNull: "is a device"} {
		if _, err := Read(Ref{"T", file}); err == nil || !strings.Contains(err.Error(), "the file of T, "+file+", "+want) {
			t.Errorf("Read(%s) = %v, want %q", file, err, want)
		}
	}
	if got, err := Read(Ref{"T", link}); err != nil || got != "s3cret" {
		t.Errorf("Read(link) = %q, %v", got, err)
	}
}
