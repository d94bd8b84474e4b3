package trust

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckAllowRevoke(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), "trust")}
	path, content := "/src/app/.claude/.mcp.json", []byte(`{"mcpServers":{}}`)
	if st, err := s.Check(path, content); err != nil || st != Untrusted {
		t.Fatalf("fresh store: %v, %v; want Untrusted", st, err)
	}
	if err := s.Allow(path, content); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.Check(path, content); st != Trusted {
		t.Fatalf("after Allow: %v; want Trusted", st)
	}
	if st, _ := s.Check(path, []byte(`{"mcpServers":{"x":{}}}`)); st != Changed {
		t.Fatalf("edited content: %v; want Changed", st)
	}
	if st, _ := s.Check("/other/.mcp.json", content); st != Untrusted {
		t.Fatalf("same content, other path: %v; want Untrusted", st)
	}
	if n, err := s.Revoke(path); err != nil || n != 1 {
		t.Fatalf("Revoke: %d, %v; want 1", n, err)
	}
	if st, _ := s.Check(path, content); st != Untrusted {
		t.Fatalf("after Revoke: %v; want Untrusted", st)
	}
}

func TestKeyBindsPathAndContent(t *testing.T) {
	// "a\nb" + "c" and "a" + "b\nc" must not collide: the path ends at its newline.
	if Key("/a", []byte("b")) == Key("/a\nb", nil) {
		t.Fatal("key does not separate path from content")
	}
}

func TestReadOverlayRefusesLinksAndBigFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	os.WriteFile(target, []byte("{}"), 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(target, link)
	if _, err := ReadOverlay(link); err == nil {
		t.Fatal("a symlinked overlay was read")
	}
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	f.Truncate(MaxOverlaySize + 1)
	f.Close()
	if _, err := ReadOverlay(big); err == nil {
		t.Fatal("an overlay over the size limit was read")
	}
	if data, err := ReadOverlay(filepath.Join(dir, "missing.json")); data != nil || err != nil {
		t.Fatalf("missing overlay: %q, %v; want nil, nil", data, err)
	}
}

// BenchmarkCheckTrusted is the launch-time lookup of a trusted overlay: a
// hash and one lstat.
func BenchmarkCheckTrusted(b *testing.B) {
	s := Store{Dir: filepath.Join(b.TempDir(), "trust")}
	path, content := "/src/app/.claude/.mcp.json", []byte(`{"mcpServers":{"a":{"command":"x"}}}`)
	if err := s.Allow(path, content); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if st, _ := s.Check(path, content); st != Trusted {
			b.Fatal("not trusted")
		}
	}
}
