package marketplaces

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var now = time.Date(2026, 11, 27, 22, 0, 0, 0, time.UTC)

func local(path string) Declared {
	return Declared{Name: "local", Source: json.RawMessage(`{"source":"directory","path":"` + path + `"}`), Path: path}
}

func TestFromSettings(t *testing.T) {
	got := FromSettings([]byte(`{"extraKnownMarketplaces": {
		"z": {"source": {"source": "directory", "path": "/m/z"}},
		"gh": {"source": {"source": "github", "repo": "o/r"}},
		"rel": {"source": {"source": "directory", "path": "m"}},
		"num": {"source": {"source": "directory", "path": 3}},
		"a": {"source": {"source": "directory", "path": "/m/a"}}}}`))
	var names []string
	for _, d := range got {
		names = append(names, d.Name+"="+d.Path)
	}
	if strings.Join(names, " ") != "a=/m/a z=/m/z" {
		t.Errorf("got %v", names)
	}
	if FromSettings([]byte(`not json`)) != nil || FromSettings(nil) != nil {
		t.Error("declared marketplaces from nothing")
	}
}

func TestMerge(t *testing.T) {
	other := `{"mine": {"source": {"source": "github", "repo": "o/r"}, "installLocation": "/c/mine", "lastUpdated": "x", "autoUpdate": true}}`
	out, changed, err := Merge([]byte(other), []Declared{local("/m")}, now)
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	var got map[string]map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got["mine"]["autoUpdate"] != true || got["mine"]["installLocation"] != "/c/mine" {
		t.Errorf("other entry not kept: %s", out)
	}
	if got["local"]["installLocation"] != "/m" || got["local"]["lastUpdated"] != "2026-11-27T22:00:00.000Z" {
		t.Errorf("declared entry: %s", out)
	}
	// Again: nothing to do, the same bytes back.
	again, changed, err := Merge(out, []Declared{local("/m")}, now.Add(time.Hour))
	if err != nil || changed || string(again) != string(out) {
		t.Errorf("second merge changed=%v err=%v", changed, err)
	}
	// The declaration moved: the entry follows.
	moved, changed, _ := Merge(out, []Declared{local("/n")}, now)
	if !changed || !strings.Contains(string(moved), `"installLocation": "/n"`) {
		t.Errorf("moved: %s", moved)
	}
	// No file: one is made.
	if out, changed, err := Merge(nil, []Declared{local("/m")}, now); err != nil || !changed || !strings.Contains(string(out), `"local"`) {
		t.Errorf("from nothing: %s %v %v", out, changed, err)
	}
	for _, bad := range []string{``, `{`, `[]`, `null`, `"s"`, `{"a": 1`} {
		if _, _, err := Merge([]byte(bad), []Declared{local("/m")}, now); err == nil {
			t.Errorf("%q: merged", bad)
		}
	}
}

func TestSyncWritesOnlyWhatChanged(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settings, []byte(`{"extraKnownMarketplaces": {"local": {"source": {"source": "directory", "path": "/m"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(dir, "plugins")
	if p, err := Sync(settings, plugins, now); p != "" || err != nil {
		t.Fatal(p, err)
	}
	file := filepath.Join(plugins, File)
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(file)
	if p, err := Sync(settings, plugins, now.Add(time.Hour)); p != "" || err != nil {
		t.Fatal(p, err)
	}
	after, _ := os.Stat(file)
	if !os.SameFile(before, after) || !before.ModTime().Equal(after.ModTime()) {
		t.Error("a sync with nothing to add wrote the file")
	}
	// A new entry: written, mode kept.
	if err := os.WriteFile(settings, []byte(`{"extraKnownMarketplaces": {"b": {"source": {"source": "directory", "path": "/b"}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := Sync(settings, plugins, now); p != "" || err != nil {
		t.Fatal(p, err)
	}
	if fi, _ := os.Stat(file); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
	// No settings: nothing read, nothing said.
	if p, err := Sync(filepath.Join(dir, "none.json"), filepath.Join(dir, "p2"), now); p != "" || err != nil {
		t.Error(p, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "p2")); err == nil {
		t.Error("plugins dir made with nothing declared")
	}
}

// FuzzMerge: whatever the file holds, Merge never panics; when it merges,
// the result parses, holds every declared entry as declared and every
// other entry of the file unchanged.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(`{"mine": {"source": {"source": "directory", "path": "/x"}, "installLocation": "/x"}}`), "/m")
	f.Add([]byte(`{"local": {"source": {"source": "directory", "path": "/m"}, "installLocation": "/m", "lastUpdated": "t"}}`), "/m")
	f.Add([]byte(`{"local": 3, "a": [1, {"b": null}]}`), "/m")
	f.Add([]byte(`[]`), "/m")
	f.Add([]byte(``), "/m")
	f.Add([]byte("{\"\\u00e9\": \"<&>\"}"), "/a\"b")
	f.Fuzz(func(t *testing.T, data []byte, path string) {
		if !utf8.ValidString(path) {
			return // FromSettings takes none: JSON cannot carry it
		}
		src, _ := json.Marshal(map[string]string{"source": "directory", "path": path})
		d := Declared{Name: "local", Source: src, Path: path}
		out, changed, err := Merge(data, []Declared{d}, now)
		if err != nil {
			return
		}
		var before, after map[string]json.RawMessage
		if json.Unmarshal(data, &before) != nil {
			t.Fatalf("merged a file that does not parse: %q", data)
		}
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("result does not parse: %v\n%s", err, out)
		}
		if !current(after["local"], d) {
			t.Fatalf("declared entry missing: %s", out)
		}
		for k, v := range before {
			if k == "local" {
				continue
			}
			var a, b any
			_ = json.Unmarshal(v, &a)
			_ = json.Unmarshal(after[k], &b)
			if string(mustJSON(a)) != string(mustJSON(b)) {
				t.Fatalf("entry %q changed: %s -> %s", k, v, after[k])
			}
		}
		if !changed && string(out) != string(data) {
			t.Fatal("unchanged but different bytes")
		}
	})
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// BenchmarkSyncNoop is the cost a launch pays when the account's file
// already has every declared marketplace: two small reads, no write.
func BenchmarkSyncNoop(b *testing.B) {
	dir := b.TempDir()
	settings := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settings, []byte(`{"extraKnownMarketplaces": {"local": {"source": {"source": "directory", "path": "/m"}}}}`), 0o644); err != nil {
		b.Fatal(err)
	}
	plugins := filepath.Join(dir, "plugins")
	if _, err := Sync(settings, plugins, now); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if p, err := Sync(settings, plugins, now); p != "" || err != nil {
			b.Fatal(p, err)
		}
	}
}

// BenchmarkSyncNothingDeclared is the cost for an account without
// marketplaces: one read of its settings.
func BenchmarkSyncNothingDeclared(b *testing.B) {
	dir := b.TempDir()
	settings := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settings, []byte(`{"model": "opus"}`), 0o644); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		if _, err := Sync(settings, dir, now); err != nil {
			b.Fatal(err)
		}
	}
}
