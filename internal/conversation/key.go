// Package conversation finds Claude Code's conversations wherever the
// launcher keeps them — every runtime of an account, runtimes set aside,
// the account's archive of removed worktrees, the account dir itself (what
// init --from brought, sessions outside git) — and puts one where a Claude
// looks for it, so that it can be resumed in any worktree and on any account.
//
// A conversation is one transcript: $CLAUDE_CONFIG_DIR/projects/<key>/<id>.jsonl,
// <key> a function of the directory Claude ran in (Key). claude --resume ID
// finds only what is under its own config dir, and before 2.1.223 only under
// the key of its working directory (measured on 2.0.77, 2.1.90, 2.1.166,
// 2.1.223, 2.1.331), so a conversation is resumable elsewhere once a copy of
// its transcript is under the key of the directory Claude starts in.
package conversation

import (
	"strconv"
	"unicode/utf16"

	"github.com/claude-account/claude-account/internal/claudever"
)

// maxKey is the length past which a key is shortened, in UTF-16 code units.
const maxKey = 200

// Key is the name Claude gives the projects/ dir of a working directory dir
// (absolute, symlinks resolved, as Claude sees it): every UTF-16 code unit
// outside [A-Za-z0-9] becomes '-' (a character outside the BMP is two);
// from 2.1.47 a key longer than 200 units is its first 200, '-', and the
// base-36 of the absolute 32-bit h*31+unit hash of dir. Read from the code of
// 2.0.77, 2.1.90 and 2.1.331 and checked against every key they made.
// long says whether the Claude in use shortens long keys
// (claudever.LongProjectKeys).
// (Native-installer builds 2.1.47–2.1.100 hash with Bun.hash instead: their
// long keys differ; Find reads every key, so only placing one is affected.)
func Key(dir string, long bool) string {
	units := utf16.Encode([]rune(dir))
	k := make([]byte, len(units))
	for i, u := range units {
		switch {
		case u >= '0' && u <= '9', u >= 'A' && u <= 'Z', u >= 'a' && u <= 'z':
			k[i] = byte(u)
		default:
			k[i] = '-'
		}
	}
	if !long || len(k) <= maxKey {
		return string(k)
	}
	var h int32
	for _, u := range units {
		h = h*31 + int32(u)
	}
	abs := int64(h)
	if abs < 0 {
		abs = -abs
	}
	return string(k[:maxKey]) + "-" + strconv.FormatInt(abs, 36)
}

// KeyFor is Key for the Claude c will run.
func KeyFor(dir string, c claudever.Binary) string {
	return Key(dir, c.MayHave(claudever.LongProjectKeys))
}
