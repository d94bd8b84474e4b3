// Package guard holds only tests: the checks that the program keeps its own
// rules (no raw write to a terminal outside package out, no git started
// outside package gitcmd). They read the typed source of every package of
// the module, loaded once and shared, so that a rule is about what a call
// does, not how it is spelt. Nothing imports this package.
package guard
