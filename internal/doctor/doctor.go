package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/claudever"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/lock"
	"github.com/claude-account/claude-account/internal/trust"
)

// Finding is one problem.
type Finding struct {
	ID      string `json:"id"` // broken-link, replaced-link, read-only, workspace-moved, not-made, temp-file, login-not-shared, keychain-default-dir, plugins-not-loaded, identity-mismatch, no-claude, claude-cannot-start, claude-release-unknown, claude-release-differs, lock-dir, overlay-changed, invalid-state, earlier-runtime, earlier-plugins, init-leftover, ide-link
	Path    string `json:"path"`
	Message string `json:"message"` // one sentence with the fix
	Fixable bool   `json:"fixable"`
	Fixed   string `json:"fixed,omitempty"` // what --fix did
	fix     func() (string, error)
	// rebuilds: fix is the launcher's whole plan, which repairs every such
	// finding at once, so it runs once however many findings name it.
	rebuilds bool
}

// Input is what doctor examines.
type Input struct {
	Account *account.Account
	Context gitctx.Context
	Layout  configdir.Layout
	LockDir string
	Trust   trust.Store
	Now     time.Time
	Claude  claudever.Binary // the Claude Code in use: what it shares depends on its release
	Env     env.Env          // the environment Claude gets (an API key there is a login)
	Unclean int64            // the last Claude here ended without its launcher, alive until then (lock.Unclean)
}

// plan is the launcher's own runtime plan for this workspace.
func (in Input) plan() (*configdir.Plan, error) {
	return configdir.MakePlan(configdir.Input{Account: in.Account, Context: in.Context, Layout: in.Layout,
		Trust: in.Trust, Now: in.Now, Claude: in.Claude, Unclean: in.Unclean, Home: in.Env.Home()})
}

// Quick runs the checks cheap enough for every launch: the config dir's links
// resolve, and no file Claude writes sits on a read-only file system.
func Quick(in Input) []Finding {
	var out []Finding
	for _, st := range configdir.Inspect(in.Layout.ConfigDir, linkNames(in)) {
		if st.Kind == "link" && !st.Resolves {
			out = append(out, brokenLink(in, st))
		}
	}
	return append(out, readOnly(in)...)
}

// Check runs every check.
func Check(in Input) []Finding {
	out := Quick(in)
	if in.Layout.IsRuntime {
		if f := notMade(in); f != nil {
			// Nothing in it is the account's: the rest does not apply.
			out = append(out, *f)
		} else {
			out = append(out, replaced(in)...)
			out = append(out, moved(in)...)
			out = append(out, earlier(in)...)
		}
	}
	if err := lock.CheckDir(in.LockDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		out = append(out, lockDir(in, err))
	}
	out = append(out, overlay(in)...)
	out = append(out, temps(in)...)
	out = append(out, initLeftovers(in)...)
	if in.Claude.Path == "" && in.Claude.Problem != "" {
		out = append(out, Finding{ID: "no-claude", Message: in.Claude.Problem})
	}
	out = append(out, claudeFindings(in)...)
	if f := loginNotShared(in); f != nil {
		out = append(out, *f)
	}
	if err := configdir.KeychainDefaultDir(in.Account.Dir, in.Env.Home(), in.Claude); err != nil {
		out = append(out, Finding{ID: "keychain-default-dir", Path: in.Account.Dir, Message: err.Error()})
	}
	if f := pluginsNotLoaded(in); f != nil {
		out = append(out, *f)
	}
	if f := identityMismatch(in); f != nil {
		out = append(out, *f)
	}
	if f := ideLink(in); f != nil {
		out = append(out, *f)
	}
	p, err := in.plan()
	if err == nil {
		err = p.Verify()
		p.Close()
	}
	if err != nil {
		out = append(out, Finding{ID: "invalid-state", Path: in.Layout.ConfigDir, Message: err.Error()})
	}
	return out
}

// Fix applies every fixable finding and records what it did.
func Fix(found []Finding) []Finding {
	rebuild := "" // set by the first rebuild: what the findings it also fixed report
	for i := range found {
		f := &found[i]
		if !f.Fixable || f.fix == nil {
			continue
		}
		if f.rebuilds && rebuild != "" {
			f.Fixed = rebuild
			continue
		}
		did, err := f.fix()
		if err != nil {
			did = "fix failed: " + err.Error()
		}
		f.Fixed = did
		if f.rebuilds {
			rebuild = "by the same rebuild"
			if err != nil {
				rebuild = did
			}
		}
	}
	return found
}

// repairPlan is the fix for anything the launcher's own plan repairs.
func repairPlan(in Input) func() (string, error) {
	return func() (string, error) {
		// The account's shared state is written by one plan at a time.
		release, err := lock.Account(in.LockDir, in.Account.Name)
		if err != nil {
			return "", err
		}
		defer release()
		p, err := in.plan()
		if err != nil {
			return "", err
		}
		defer p.Close()
		if err := p.Apply(); err != nil {
			return "", err
		}
		return fmt.Sprintf("rebuilt the config dir (%d changes)", len(p.Steps)), nil
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
