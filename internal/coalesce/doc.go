// Package coalesce sets the top-level keys an account owns in JSON files that
// Claude Code also writes (settings.json, .claude.json), keeping every other
// byte as Claude left it: the account owns the keys it declares, Claude owns
// the rest.
//
// .claude.json can be 100 MB of prompt history, so documents are never decoded
// whole. One pass over the top level locates its members; only the managed
// values are decoded and compared. Only when something must change is the whole
// document validated and the output built, by splicing bytes, in one
// allocation. The package does no file IO.
//
// Values compare as JSON.parse sees them (see [Equal]): a file that Claude
// re-indented, or whose objects list their members in another order, is in
// sync and is not rewritten.
//
// A top-level name given twice is read as JSON.parse reads it: the last value
// wins, at the position of the first. Splice leaves duplicates of keys it does
// not manage alone, byte for byte, and collapses a managed key given twice into
// one member at the first position, so that every reader, whichever occurrence
// it takes, sees the managed value.
//
// Invalid JSON is reported as a *SyntaxError and never rewritten. A document
// is validated in full only when it is about to be rewritten: an invalid
// document whose managed keys already hold their values is reported in sync,
// and left alone. An empty or all-whitespace document counts as {}.
//
// Where each part lives:
//
//   - coalesce.go: Key, Splice and SplicePieces, and Doc, a document scanned
//     once.
//   - splice.go: how a splice is located (which member holds which key) and
//     built, piece by piece, from slices of the document.
//   - read.go: the readers: Get, Lookup, Path, Validate, TopLevelKeys.
//   - settings.go: Settings, settings.json coalesced from what the account
//     declares, and declared before.
//   - scan.go: the one pass over the top level that finds its members.
//   - valid.go: full validation, as encoding/json.Valid, only before a
//     rewrite.
//   - equal.go: Equal, values compared as JSON.parse sees them.
//   - format.go: the layout of inserted members, learnt from the document.
//   - errors.go: SyntaxError, with a line and a column a person can find.
package coalesce
