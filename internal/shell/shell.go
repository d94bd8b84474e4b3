// Package shell writes words for sh: the commands the launcher prints for a
// user to paste, and the ones it hands Claude to run (hooks, the status
// line). One quoting rule everywhere, so what a message suggests runs as
// printed.
package shell

import "strings"

// Quote is s as one sh word: unchanged when it holds nothing sh would split
// or expand, else single-quoted, each ' inside closed, escaped and reopened.
func Quote(s string) string {
	safe := s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:@%=", r))
	})
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word and joins them with spaces: a command line.
func Join(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = Quote(w)
	}
	return strings.Join(q, " ")
}
