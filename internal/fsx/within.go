package fsx

import (
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// NamesFold is whether this system's file system takes two names that
// differ in case or in Unicode normalisation for one: macOS's APFS (and
// HFS+), as formatted by default, do; "cd ~/src/App" works in ~/src/app
// and the kernel reports the working directory as typed. Linux's do not.
const NamesFold = runtime.GOOS == "darwin"

// Within reports whether the path p is root or lies below it, as this
// system's file system names them: the one comparison of a process's
// working directory (or a launch's workspace) with a worktree, wherever
// removing a worktree asks whether a Claude works in it (claudeproc, the
// launcher's locks). Where names fold (NamesFold), a byte comparison would
// miss a Claude that cd'd in by another case or normalisation, and rm or gc
// would remove the directory it works in.
func Within(p, root string) bool { return WithinAs(p, root, NamesFold, nil) }

// SameDir reports whether a and b name one directory, as Within compares.
func SameDir(a, b string) bool { return Within(a, b) && Within(b, a) }

// FileID is a file's identity: its device and inode.
type FileID struct{ Dev, Ino uint64 }

// WithinAs is Within on a file system that folds names or not, with id
// giving a file's identity (nil: stat): macOS's process table is read, and
// tested on recorded inputs, on any system. Bytes that match are within.
// Where names fold, the file system decides when it can: p, or one of its
// parents, is root's very directory (the same device and inode, whatever
// the spelling). When root cannot be stat'ed (gone, unreadable), names are
// compared element by element, case-folded and decomposed (foldName).
func WithinAs(p, root string, fold bool, id func(string) (FileID, bool)) bool {
	if r := strings.TrimSuffix(root, "/"); p == root || p == r || strings.HasPrefix(p, r+"/") {
		return true
	}
	if !fold {
		return false
	}
	if id == nil {
		id = statID
	}
	p, root = filepath.Clean(p), filepath.Clean(root)
	if want, ok := id(root); ok {
		for a := p; ; a = filepath.Dir(a) {
			if got, ok := id(a); ok && got == want {
				return true
			}
			if a == filepath.Dir(a) {
				return false
			}
		}
	}
	ps, rs := strings.Split(p, "/"), strings.Split(root, "/")
	if len(ps) < len(rs) {
		return false
	}
	for i, r := range rs {
		if !strings.EqualFold(foldName(ps[i]), foldName(r)) {
			return false
		}
	}
	return true
}

// statID is the identity of the file at path, links followed.
func statID(path string) (FileID, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return FileID{}, false
	}
	return FileID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}, true
}

// foldName decomposes the precomposed Latin letters of s (U+00C0 to
// U+017F, the letters of Western and Central European names) into a base
// letter and a combining mark, as macOS's file systems compare them (NFD).
// It is only the fallback for a path that cannot be stat'ed: no Unicode
// tables come with Go's standard library, and this module adds no
// dependency for them.
func foldName(s string) string {
	var b strings.Builder
	for i, r := range s {
		d, ok := latinNFD[r]
		if !ok {
			if b.Len() > 0 {
				b.WriteRune(r)
			}
			continue
		}
		if b.Len() == 0 {
			b.WriteString(s[:i])
		}
		b.WriteRune(d[0])
		b.WriteRune(d[1])
	}
	if b.Len() == 0 {
		return s
	}
	return b.String()
}

// latinNFD is each precomposed letter of U+00C0 to U+017F with its
// canonical decomposition (base, combining mark), from the Unicode
// Character Database (every one of them is a single pair).
var latinNFD = map[rune][2]rune{
	0xC0: {'A', 0x300}, 0xC1: {'A', 0x301}, 0xC2: {'A', 0x302}, 0xC3: {'A', 0x303}, 0xC4: {'A', 0x308}, 0xC5: {'A', 0x30A},
	0xC7: {'C', 0x327}, 0xC8: {'E', 0x300}, 0xC9: {'E', 0x301}, 0xCA: {'E', 0x302}, 0xCB: {'E', 0x308}, 0xCC: {'I', 0x300},
	0xCD: {'I', 0x301}, 0xCE: {'I', 0x302}, 0xCF: {'I', 0x308}, 0xD1: {'N', 0x303}, 0xD2: {'O', 0x300}, 0xD3: {'O', 0x301},
	0xD4: {'O', 0x302}, 0xD5: {'O', 0x303}, 0xD6: {'O', 0x308}, 0xD9: {'U', 0x300}, 0xDA: {'U', 0x301}, 0xDB: {'U', 0x302},
	0xDC: {'U', 0x308}, 0xDD: {'Y', 0x301}, 0xE0: {'a', 0x300}, 0xE1: {'a', 0x301}, 0xE2: {'a', 0x302}, 0xE3: {'a', 0x303},
	0xE4: {'a', 0x308}, 0xE5: {'a', 0x30A}, 0xE7: {'c', 0x327}, 0xE8: {'e', 0x300}, 0xE9: {'e', 0x301}, 0xEA: {'e', 0x302},
	0xEB: {'e', 0x308}, 0xEC: {'i', 0x300}, 0xED: {'i', 0x301}, 0xEE: {'i', 0x302}, 0xEF: {'i', 0x308}, 0xF1: {'n', 0x303},
	0xF2: {'o', 0x300}, 0xF3: {'o', 0x301}, 0xF4: {'o', 0x302}, 0xF5: {'o', 0x303}, 0xF6: {'o', 0x308}, 0xF9: {'u', 0x300},
	0xFA: {'u', 0x301}, 0xFB: {'u', 0x302}, 0xFC: {'u', 0x308}, 0xFD: {'y', 0x301}, 0xFF: {'y', 0x308}, 0x100: {'A', 0x304},
	0x101: {'a', 0x304}, 0x102: {'A', 0x306}, 0x103: {'a', 0x306}, 0x104: {'A', 0x328}, 0x105: {'a', 0x328}, 0x106: {'C', 0x301},
	0x107: {'c', 0x301}, 0x108: {'C', 0x302}, 0x109: {'c', 0x302}, 0x10A: {'C', 0x307}, 0x10B: {'c', 0x307}, 0x10C: {'C', 0x30C},
	0x10D: {'c', 0x30C}, 0x10E: {'D', 0x30C}, 0x10F: {'d', 0x30C}, 0x112: {'E', 0x304}, 0x113: {'e', 0x304}, 0x114: {'E', 0x306},
	0x115: {'e', 0x306}, 0x116: {'E', 0x307}, 0x117: {'e', 0x307}, 0x118: {'E', 0x328}, 0x119: {'e', 0x328}, 0x11A: {'E', 0x30C},
	0x11B: {'e', 0x30C}, 0x11C: {'G', 0x302}, 0x11D: {'g', 0x302}, 0x11E: {'G', 0x306}, 0x11F: {'g', 0x306}, 0x120: {'G', 0x307},
	0x121: {'g', 0x307}, 0x122: {'G', 0x327}, 0x123: {'g', 0x327}, 0x124: {'H', 0x302}, 0x125: {'h', 0x302}, 0x128: {'I', 0x303},
	0x129: {'i', 0x303}, 0x12A: {'I', 0x304}, 0x12B: {'i', 0x304}, 0x12C: {'I', 0x306}, 0x12D: {'i', 0x306}, 0x12E: {'I', 0x328},
	0x12F: {'i', 0x328}, 0x130: {'I', 0x307}, 0x134: {'J', 0x302}, 0x135: {'j', 0x302}, 0x136: {'K', 0x327}, 0x137: {'k', 0x327},
	0x139: {'L', 0x301}, 0x13A: {'l', 0x301}, 0x13B: {'L', 0x327}, 0x13C: {'l', 0x327}, 0x13D: {'L', 0x30C}, 0x13E: {'l', 0x30C},
	0x143: {'N', 0x301}, 0x144: {'n', 0x301}, 0x145: {'N', 0x327}, 0x146: {'n', 0x327}, 0x147: {'N', 0x30C}, 0x148: {'n', 0x30C},
	0x14C: {'O', 0x304}, 0x14D: {'o', 0x304}, 0x14E: {'O', 0x306}, 0x14F: {'o', 0x306}, 0x150: {'O', 0x30B}, 0x151: {'o', 0x30B},
	0x154: {'R', 0x301}, 0x155: {'r', 0x301}, 0x156: {'R', 0x327}, 0x157: {'r', 0x327}, 0x158: {'R', 0x30C}, 0x159: {'r', 0x30C},
	0x15A: {'S', 0x301}, 0x15B: {'s', 0x301}, 0x15C: {'S', 0x302}, 0x15D: {'s', 0x302}, 0x15E: {'S', 0x327}, 0x15F: {'s', 0x327},
	0x160: {'S', 0x30C}, 0x161: {'s', 0x30C}, 0x162: {'T', 0x327}, 0x163: {'t', 0x327}, 0x164: {'T', 0x30C}, 0x165: {'t', 0x30C},
	0x168: {'U', 0x303}, 0x169: {'u', 0x303}, 0x16A: {'U', 0x304}, 0x16B: {'u', 0x304}, 0x16C: {'U', 0x306}, 0x16D: {'u', 0x306},
	0x16E: {'U', 0x30A}, 0x16F: {'u', 0x30A}, 0x170: {'U', 0x30B}, 0x171: {'u', 0x30B}, 0x172: {'U', 0x328}, 0x173: {'u', 0x328},
	0x174: {'W', 0x302}, 0x175: {'w', 0x302}, 0x176: {'Y', 0x302}, 0x177: {'y', 0x302}, 0x178: {'Y', 0x308}, 0x179: {'Z', 0x301},
	0x17A: {'z', 0x301}, 0x17B: {'Z', 0x307}, 0x17C: {'z', 0x307}, 0x17D: {'Z', 0x30C}, 0x17E: {'z', 0x30C},
}
