package conversation

import (
	"strings"
	"testing"
)

// The keys Claude made, measured on 2.0.77, 2.1.90 and 2.1.331.
func TestKey(t *testing.T) {
	long := "/work/research/conversations/k/" + strings.Repeat("segmentNN.x/", 25) + "end"
	for i := 1; i <= 25; i++ {
		long = strings.Replace(long, "NN", twoDigits(i), 1)
	}
	for _, c := range []struct {
		dir, want string
		long      bool
	}{
		{"/work/research/conversations/k/a.b c_d", "-work-research-conversations-k-a-b-c-d", true},
		{"/work/research/conversations/k/café-Ünï 日本", "-work-research-conversations-k-caf---n----", true},
		{"/work/research/conversations/k/emoji😀x", "-work-research-conversations-k-emoji--x", true},
		{"/work/research/conversations/k/UPPER~tilde+plus@at", "-work-research-conversations-k-UPPER-tilde-plus-at", true},
		{long, "-work-research-conversations-k-segment01-x-segment02-x-segment03-x-segment04-x-segment05-x-segment06-x-segment07-x-segment08-x-segment09-x-segment10-x-segment11-x-segment12-x-segment13-x-segment14-x-s-ia8g3o", true},
	} {
		if got := Key(c.dir, c.long); got != c.want {
			t.Errorf("Key(%q) = %q, want %q", c.dir, got, c.want)
		}
	}
	if got := Key(long, false); len(got) != len([]rune(long)) {
		t.Errorf("before 2.1.47 a long key is not shortened: got %d units for a %d-unit path", len(got), len([]rune(long)))
	}
}

func twoDigits(i int) string { return string([]byte{byte('0' + i/10), byte('0' + i%10)}) }

func FuzzKey(f *testing.F) {
	for _, s := range []string{"/", "/a b", "/émoji😀", strings.Repeat("/x", 150)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dir string) {
		k := Key(dir, true)
		if strings.ContainsAny(k, "/.\x00") {
			t.Fatalf("Key(%q) = %q: not one path component", dir, k)
		}
		if len(k) > maxKey+1+7 {
			t.Fatalf("Key(%q) is %d long", dir, len(k))
		}
		if Key(dir, true) != k {
			t.Fatal("not a function")
		}
	})
}
