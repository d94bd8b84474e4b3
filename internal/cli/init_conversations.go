package cli

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/claude-account/claude-account/internal/account"
	"github.com/claude-account/claude-account/internal/adopt"
	"github.com/claude-account/claude-account/internal/configdir"
	"github.com/claude-account/claude-account/internal/conversation"
	"github.com/claude-account/claude-account/internal/gitctx"
	"github.com/claude-account/claude-account/internal/runtimes"
)

// ImportedConversation is one conversation init --from brings along.
type ImportedConversation struct {
	ID    string         `json:"id"`
	Title string         `json:"title"`
	Cwd   string         `json:"cwd"`           // where it ran
	To    string         `json:"to"`            // the config dir it goes to: its worktree's runtime, or the account dir
	Why   string         `json:"why,omitempty"` // why not its worktree's runtime
	from  string         // the transcript in the source
	key   string         // its projects/ key, as Claude made it
	place runtimes.Place // where its runtime belongs, as a launch there finds it
}

// planConversations lists the conversations of the config dir src
// (projects/<key>/<id>.jsonl) and where each goes: the runtime of the
// worktree it ran in, where a launch of this account there looks for it
// (--resume, --continue and the picker then find it as if it had run under
// the launcher), else the account dir (outside git, a repository that is
// gone, a runtime that is not the launcher's). What it leaves out of
// projects/ is named in left, with why: a file Claude cannot resume (its
// name is no session id), one that holds no message.
func planConversations(d *Deps, name, accountDir, src string) (out []ImportedConversation, left []adopt.Skip) {
	a := &account.Account{Name: name, Dir: accountDir}
	keys, _ := os.ReadDir(filepath.Join(src, "projects"))
	for _, k := range keys {
		if !k.IsDir() {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(src, "projects", k.Name()))
		for _, f := range files {
			n := f.Name()
			path := filepath.Join(src, "projects", k.Name(), n)
			if !f.Type().IsRegular() || !strings.HasSuffix(n, ".jsonl") || strings.HasPrefix(n, "agent-") {
				continue // not a transcript, or a subagent's (2.0.77), which goes with no conversation
			}
			if _, ok := conversation.SessionFile(n); !ok {
				left = append(left, adopt.Skip{Path: path, Why: "its name is not a session id, so Claude cannot resume it"})
				continue
			}
			m, err := conversation.ReadMeta(path)
			switch {
			case err != nil:
				left = append(left, adopt.Skip{Path: path, Why: "it cannot be read: " + err.Error()})
				continue
			case m.Cwd == "":
				left = append(left, adopt.Skip{Path: path, Why: "it holds no message of a conversation (only summaries or metadata)"})
				continue
			}
			ic := ImportedConversation{ID: m.ID, Title: m.Title, Cwd: m.Cwd, To: accountDir, from: path, key: k.Name()}
			ctx, err := gitctx.Detect(m.Cwd, func(string) string { return "" })
			switch {
			case err != nil || ctx.Kind == gitctx.NotGit || ctx.Kind == gitctx.Bare:
				if _, err := os.Stat(m.Cwd); err != nil {
					ic.Why = "the directory it ran in is gone"
				}
			default:
				l := configdir.Locate(a, ctx, d.Env)
				if fi, err := os.Lstat(l.ConfigDir); err == nil && (!fi.IsDir() || !runtimes.Trusted(accountDir, l.ConfigDir)) {
					ic.Why = l.ConfigDir + " is not the launcher's"
					break
				}
				ic.To = l.ConfigDir
				ic.place = runtimes.Place{Worktree: ctx.Toplevel, GitDir: ctx.GitDir, CommonDir: ctx.CommonDir}
			}
			out = append(out, ic)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Cwd < out[j].Cwd || out[i].Cwd == out[j].Cwd && out[i].ID < out[j].ID
	})
	return out, left
}

// importConversations copies each planned conversation to its config dir:
// a worktree's runtime is made (and recorded as the launcher's) when it is
// not there yet; the source is only read. It returns notes for what it
// could not copy.
func importConversations(d *Deps, accountDir string, convs []ImportedConversation) []string {
	var notes []string
	for _, ic := range convs {
		if ic.To != accountDir {
			if err := ensureRuntime(accountDir, ic.To, ic.place); err != nil {
				notes = append(notes, "conversation "+ic.ID+" stays in "+ic.from+": "+err.Error())
				continue
			}
		}
		c := conversation.Conversation{ID: ic.ID, Transcript: ic.from}
		if _, err := conversation.Place(c, ic.To, ic.key, false, d.Now(), conversation.Keep(ic.To, accountDir)); err != nil {
			notes = append(notes, "conversation "+ic.ID+" stays in "+ic.from+": "+err.Error())
		}
	}
	return notes
}

// ensureRuntime makes the runtime dir rt of the account in accountDir, as a
// launch would (0700, recorded in the account's record of the runtimes the
// launcher made), unless it is there; the first launch in its worktree
// builds the rest.
func ensureRuntime(accountDir, rt string, place runtimes.Place) error {
	if runtimes.Trusted(accountDir, rt) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(rt), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(rt, 0o700); err != nil {
		return err
	}
	return runtimes.Register(runtimes.Path(accountDir), rt, place)
}
