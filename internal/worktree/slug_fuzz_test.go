package worktree

import "testing"

// FuzzSlugOfDir: the slug read back from a worktree dir's name (resume
// records a worktree it made again under it) is valid and names that dir,
// and every valid slug's dir gives it back.
func FuzzSlugOfDir(f *testing.F) {
	for _, s := range []string{"feat", "fix+login", "me+a+b", "+x", "x+", "a++b", "..", "a+..+b", "agent-a1234567", ".git", "x+.claude", "-x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if slug := SlugOfDir(name); slug != "" {
			if err := ValidateSlug(slug); err != nil {
				t.Fatalf("SlugOfDir(%q) = %q, invalid: %v", name, slug, err)
			}
			if Flatten(slug) != name {
				t.Fatalf("SlugOfDir(%q) = %q, whose dir is %q", name, slug, Flatten(slug))
			}
		}
		if ValidateSlug(name) == nil {
			if got := SlugOfDir(Flatten(name)); got != name {
				t.Fatalf("SlugOfDir(Flatten(%q)) = %q", name, got)
			}
		}
	})
}
