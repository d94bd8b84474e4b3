package gitctx

import (
	"syscall"
	"testing"
)

// TestFilesystemBoundary checks that discovery stops at a mount point, as
// git does unless GIT_DISCOVERY_ACROSS_FILESYSTEM is set. It needs to
// mount a tmpfs, so it only runs as root.
func TestFilesystemBoundary(t *testing.T) {
	r := newRepos(t)
	r.mainWithWorktree(t)
	mnt := r.path("main/mnt")
	r.mkdir(t, "main/mnt")
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, ""); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, 0) })
	r.mkdir(t, "main/mnt/sub")
	for _, c := range []struct {
		env  map[string]string
		kind Kind
	}{
		{nil, NotGit},
		{map[string]string{"GIT_DISCOVERY_ACROSS_FILESYSTEM": "false"}, NotGit},
		{map[string]string{"GIT_DISCOVERY_ACROSS_FILESYSTEM": "1"}, Main},
		{map[string]string{"GIT_DISCOVERY_ACROSS_FILESYSTEM": "yes"}, Main},
	} {
		got, err := Detect(r.path("main/mnt/sub"), lookup(c.env))
		if err != nil {
			t.Fatal(err)
		}
		_, gitErr := r.run(r.path("main/mnt/sub"), c.env, "rev-parse", "--git-dir")
		if got.Kind != c.kind || (gitErr == nil) != (c.kind != NotGit) {
			t.Errorf("%v: Kind = %s, want %s; git: %v", c.env, got.Kind, c.kind, gitErr)
		}
	}
}
