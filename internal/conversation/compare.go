package conversation

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/tidwall/gjson"
)

// Order is how two copies of one conversation stand to each other.
type Order int

const (
	Same     Order = iota // the same messages
	Newer                 // the first holds every message of the second, and more
	Older                 // the second holds every message of the first, and more
	Diverged              // each holds messages the other lacks
)

func (o Order) String() string {
	return [...]string{"same", "newer", "older", "diverged"}[o]
}

// Compare is how transcript a stands to transcript b (the bytes of two
// copies of one <id>.jsonl), by their messages: each message line carries
// its own "uuid", and Claude only appends to a transcript (measured on
// 2.0.77, 2.1.90 and 2.1.330: a --resume keeps every line and adds its
// turns after them), so the copy whose messages include all of the other's
// is the newer one. Not by modification time: a copy keeps its source's,
// and clocks tie. A copy that is the other's first bytes is older without
// a line parsed (the usual case: one handed over, continued, handed back).
func Compare(a, b []byte) Order {
	switch {
	case bytes.Equal(a, b):
		return Same
	case bytes.HasPrefix(a, b):
		return Newer
	case bytes.HasPrefix(b, a):
		return Older
	}
	return bySets(uuids(bytes.NewReader(a)), uuids(bytes.NewReader(b)))
}

// bySets is how a transcript whose messages are ua stands to one whose
// messages are ub.
func bySets(ua, ub map[string]bool) Order {
	aHasB, bHasA := contains(ua, ub), contains(ub, ua)
	switch {
	case aHasB && bHasA:
		return Same
	case aHasB:
		return Newer
	case bHasA:
		return Older
	}
	return Diverged
}

// uuids is the set of the messages' uuids in a transcript: each line's own
// (top-level) "uuid"; lines without one (titles, summaries, queue
// operations) are not messages of the conversation, nor is a turn a usage
// limit refused (isRefusal, its refused entry and the notices after it).
// It reads a line at a
// time: a transcript may be hundreds of megabytes.
func uuids(r io.Reader) map[string]bool {
	set, refused := map[string]bool{}, map[string]bool{}
	br := bufio.NewReaderSize(r, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, line...)
			continue
		}
		if long != nil {
			line, long = append(long, line...), nil
		}
		if bytes.Contains(line, []byte(`"uuid"`)) {
			f := gjson.GetManyBytes(line, "uuid", "parentUuid", "type")
			switch u := f[0]; {
			case u.Type != gjson.String || u.Str == "":
			case isRefusal(line):
				// A turn a usage limit refused is no message of the
				// conversation: the account it was handed to sends it
				// again (resume --next), its copy without it. Neither the
				// refused entry, the refusal, nor Claude's notices about it
				// make the two copies diverge.
				refused[u.Str], refused[f[1].Str] = true, true
				delete(set, f[1].Str)
			case f[2].Str == "system" && refused[f[1].Str]:
				refused[u.Str] = true
			default:
				set[u.Str] = true
			}
		}
		if err != nil {
			return set
		}
	}
}

// contains reports whether every member of b is in a.
func contains(a, b map[string]bool) bool {
	for k := range b {
		if !a[k] {
			return false
		}
	}
	return true
}

// CompareFiles is Compare of the transcripts at a and b, reading as little as
// it needs: the shorter one's length of each first, in blocks, and both
// whole, a line at a time, only when neither begins the other.
func CompareFiles(a, b string) (Order, error) {
	fa, err := os.Open(a)
	if err != nil {
		return Same, err
	}
	defer fa.Close()
	fb, err := os.Open(b)
	if err != nil {
		return Same, err
	}
	defer fb.Close()
	sa, err := fa.Stat()
	if err != nil {
		return Same, err
	}
	sb, err := fb.Stat()
	if err != nil {
		return Same, err
	}
	if os.SameFile(sa, sb) {
		return Same, nil
	}
	n := min(sa.Size(), sb.Size())
	prefix, err := samePrefix(fa, fb, n)
	if err != nil {
		return Same, err
	}
	if prefix {
		switch {
		case sa.Size() > sb.Size():
			return Newer, nil
		case sa.Size() < sb.Size():
			return Older, nil
		}
		return Same, nil
	}
	return bySets(uuids(io.NewSectionReader(fa, 0, sa.Size())), uuids(io.NewSectionReader(fb, 0, sb.Size()))), nil
}

// samePrefix reports whether the first n bytes of a and b are the same,
// reading them a block at a time and stopping at the first that differs.
func samePrefix(a, b io.ReaderAt, n int64) (bool, error) {
	const block = 64 << 10
	ba, bb := make([]byte, min(n, block)), make([]byte, min(n, block))
	for off := int64(0); off < n; off += block {
		k := min(n-off, block)
		if _, err := a.ReadAt(ba[:k], off); err != nil && err != io.EOF {
			return false, err
		}
		if _, err := b.ReadAt(bb[:k], off); err != nil && err != io.EOF {
			return false, err
		}
		if !bytes.Equal(ba[:k], bb[:k]) {
			return false, nil
		}
	}
	return true, nil
}

// ByPrefix is how the file at a stands to the one at b when one begins
// with all the other's bytes (Same, Newer, Older), and ok only then: the
// proof that whoever holds one already holds the other's content up to
// where it ends, which no count of messages gives (a transcript with no
// message is contained in every other). The shorter must not be empty (an
// empty file begins every file), and, of transcripts (lines), must end a
// line: Claude writes whole lines, and a line cut short is what anyone who
// knows a conversation's id and where it ran can write. Neither is
// followed if it is a link.
func ByPrefix(a, b string, lines bool) (o Order, ok bool) {
	fa, sa, err := openRegular(a)
	if err != nil {
		return Diverged, false
	}
	defer fa.Close()
	fb, sb, err := openRegular(b)
	if err != nil {
		return Diverged, false
	}
	defer fb.Close()
	n := min(sa.Size(), sb.Size())
	if n == 0 {
		return Diverged, false
	}
	if same, err := samePrefix(fa, fb, n); err != nil || !same {
		return Diverged, false
	}
	if lines {
		last := make([]byte, 1)
		if _, err := fa.ReadAt(last, n-1); err != nil || last[0] != '\n' {
			return Diverged, false
		}
	}
	switch {
	case sa.Size() > sb.Size():
		return Newer, true
	case sa.Size() < sb.Size():
		return Older, true
	}
	return Same, true
}

// openRegular opens the regular file at path, never through a link at its
// last part.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file", path)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
