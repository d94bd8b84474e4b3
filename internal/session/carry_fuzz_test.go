package session

import (
	"strings"
	"testing"
)

// FuzzCarried: every argument lands in kept or dropped, in order.
func FuzzCarried(f *testing.F) {
	f.Add("--model\x00opus\x00--resume\x00x\x00hi")
	f.Add("-pc\x00--add-dir\x00a\x00b\x00--\x00-x")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		kept, dropped := Carried(args)
		if len(kept)+len(dropped) != len(args) {
			t.Fatalf("Carried(%q) = %q, %q: lost or added arguments", args, kept, dropped)
		}
	})
}
