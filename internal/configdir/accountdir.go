package configdir

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/ledger"
	"github.com/claude-account/claude-account/internal/mcp"
)

// harvestAccountDir takes into the ledger what changed in the account dir's
// own .claude.json since the launcher last saw it — servers and account keys
// that plain Claude or an editor put there — when a launch in a runtime does
// not otherwise read it: its stamp (inode, size, mtime) in the account's
// record says whether it changed. A file that does not parse stops the launch
// with nothing written. It returns the account dir's state when it was read
// (the managed keys need it: need), and the ledger to plan with.
func (p *Plan) harvestAccountDir(s *stateInput, declared mcp.Servers, book *ledger.Ledger, need bool) ([]byte, *ledger.Ledger, error) {
	a := s.in.Account
	path := filepath.Join(a.Dir, ".claude.json")
	rf := s.record(filepath.Join(a.Dir, ManagedFile))
	stamp := stampOf(path)
	if book != nil && !need && rf.r.Stamp == stamp {
		return nil, book, nil
	}
	acct, release, err := mapOptional(path)
	p.releases = append(p.releases, release)
	if err != nil {
		return nil, nil, err
	}
	fix := "fix the JSON by hand or restore it from " + filepath.Join(a.Dir, "backups")
	err = fsx.Guard(path, func() error {
		doc, err := coalesce.Scan(acct)
		if err != nil {
			return fileError(path, err, fix)
		}
		raw, _, err := doc.Lookup("mcpServers")
		if err != nil {
			return fileError(path, err, fix)
		}
		inAcct, err := mcp.ParseClaudes(raw, path)
		if err != nil {
			return fmt.Errorf("%w; %s (nothing was changed)", err, fix)
		}
		names := accountKeyNames(a)
		have, err := lookupKeys(doc.Lookup, names)
		if err != nil {
			return fileError(path, err, fix)
		}
		if book == nil {
			// The account's first ledger: the servers its own .claude.json
			// holds beyond the declared ones are Claude's.
			book = ledger.Bootstrap(declared, inAcct)
		} else {
			res := ledger.Reconcile(ledger.Input{Ledger: book, Declared: declared, Current: inAcct, Seen: rf.r.Servers, File: path})
			book = res.Ledger
		}
		book.HarvestKeys(names, have, rf.r.AccountKeys)
		// What the account dir holds now is seen; the declared servers are
		// put back there by the next launch outside git, not by this one.
		seen := ledger.SeenOf(inAcct)
		for _, d := range declared {
			if before, ok := rf.r.Servers[d.Name]; ok {
				seen[d.Name] = before
			} else {
				delete(seen, d.Name)
			}
		}
		rf.r.Servers, rf.r.AccountKeys, rf.r.Stamp = seen, have, stamp
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return acct, book, nil
}

// lookupKeys reads the top-level keys names of a document.
func lookupKeys(lookup func(string) ([]byte, bool, error), names []string) (map[string]json.RawMessage, error) {
	have := map[string]json.RawMessage{}
	for _, k := range names {
		raw, ok, err := lookup(k)
		if err != nil {
			return nil, err
		}
		if ok {
			have[k] = json.RawMessage(raw)
		}
	}
	return have, nil
}

// declaredServers are the servers the account declares in its .mcp.json;
// none when it has no such file.
func declaredServers(a *account.Account) (mcp.Servers, error) {
	path := filepath.Join(a.DeclaredDir(), ".mcp.json")
	data, err := readOptional(path)
	if err != nil {
		return nil, err
	}
	servers, err := mcp.Parse(data, path)
	if err != nil {
		return nil, fmt.Errorf("%w; fix the account's MCP servers (nothing was changed)", err)
	}
	return servers, nil
}
