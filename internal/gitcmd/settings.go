package gitcmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/claude-account/claude-account/internal/env"
	"github.com/claude-account/claude-account/internal/shell"
)

// Setting is one configuration value given to git for a command.
type Setting struct{ Key, Value string }

// always are the settings of every call (see the package comment). An
// empty core.fsmonitor is off in every git: git 2.36 reads it as false, and
// older ones as no hook ("false" would be a hook named false there).
var always = []Setting{{"core.fsmonitor", ""}, {"core.hooksPath", "/dev/null"}}

// Entry is one line of `git config --list --show-scope -z`.
type Entry struct {
	Scope    string // system, global, local, worktree, command
	Key      string // section and name lower-cased, subsection as written
	Value    string
	HasValue bool // false: "[s] key" without "=", which reads as true
}

// fromRepository reports whether an entry came with the repository:
// its .git/config, config.worktree, or a file either includes.
func (e Entry) fromRepository() bool { return e.Scope == "local" || e.Scope == "worktree" }

// ParseList reads the output of `git config --list --show-scope -z`:
// records "SCOPE\0KEY\nVALUE\0", or "SCOPE\0KEY\0" for a key without a
// value. Anything else is an error: the caller then runs no git.
func ParseList(out []byte) ([]Entry, error) {
	var list []Entry
	for len(out) > 0 {
		scope, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return nil, errors.New("gitcmd: git config --list ended inside a record")
		}
		switch string(scope) {
		case "system", "global", "local", "worktree", "command":
		default:
			return nil, fmt.Errorf("gitcmd: git config --list gave the unknown scope %q", scope)
		}
		rec, rest, ok := bytes.Cut(rest, []byte{0})
		if !ok {
			return nil, errors.New("gitcmd: git config --list ended inside a record")
		}
		key, value, hasValue := bytes.Cut(rec, []byte{'\n'})
		if !validKey(string(key)) {
			return nil, fmt.Errorf("gitcmd: git config --list gave the key %q", key)
		}
		list = append(list, Entry{Scope: string(scope), Key: string(key), Value: string(value), HasValue: hasValue})
		out = rest
	}
	return list, nil
}

// validKey is a key as git prints it: section.name or section.sub.name,
// section and name of [a-z0-9-] (the section may hold dots in the old
// [section.sub] form, which git prints with the subsection lower-cased),
// the name starting with a letter.
func validKey(k string) bool {
	first, last := strings.IndexByte(k, '.'), strings.LastIndexByte(k, '.')
	if first <= 0 || last == len(k)-1 {
		return false
	}
	name := k[last+1:]
	if !(name[0] >= 'a' && name[0] <= 'z') {
		return false
	}
	for _, s := range []string{k[:first], name} {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// splitKey is section, subsection ("" when none) and name.
func splitKey(k string) (section, sub, name string) {
	first, last := strings.IndexByte(k, '.'), strings.LastIndexByte(k, '.')
	if first < 0 {
		return k, "", ""
	}
	section, name = k[:first], k[last+1:]
	if first < last {
		sub = k[first+1 : last]
	}
	return section, sub, name
}

// Plan is what a git command in a repository needs so that nothing its
// configuration names runs.
type Plan struct {
	Settings []Setting // after always
	Env      []string  // NAME=VALUE to add
	// UploadPack are remote.<r>.uploadpack keys the repository sets and the
	// user does not: git uses the first value it reads, so no later setting
	// can replace them (see Git.Run). SubmoduleUploadPack are those a
	// submodule's configuration sets.
	UploadPack, SubmoduleUploadPack []string
}

// Neutralise plans a git command in a repository. main is the listing of
// the repository the command runs in; others are those of repositories git
// may enter from it (submodules), whose own entries count as the
// repository's too; environ is the command's environment.
func Neutralise(main []Entry, others [][]Entry, environ env.Env) Plan {
	var repo []Entry
	user := map[string][]Entry{} // the user's own entries by key, in order
	var userHelpers []Entry      // credential.*helper of the user, in order
	for _, e := range main {
		if e.fromRepository() {
			repo = append(repo, e)
			continue
		}
		user[e.Key] = append(user[e.Key], e)
		if section, _, name := splitKey(e.Key); section == "credential" && name == "helper" {
			userHelpers = append(userHelpers, e)
		}
	}
	inMain := len(repo) // repo[:inMain] are main's own
	for _, list := range others {
		for _, e := range list {
			if e.fromRepository() {
				repo = append(repo, e)
			}
		}
	}
	var plan Plan
	var set []Setting
	var vars []string
	done := map[string]bool{}
	add := func(key, value string) {
		if !done[key] {
			done[key] = true
			set = append(set, Setting{key, value})
		}
	}
	// restore gives key the user's own last value, else value.
	restore := func(key, value string) {
		if u := user[key]; len(u) > 0 {
			value = u[len(u)-1].Value
		}
		add(key, value)
	}
	helpers := false
	protocolDefaults := false
	for i, e := range repo {
		section, sub, name := splitKey(e.Key)
		switch {
		case section == "filter" && sub != "" && (name == "clean" || name == "smudge" || name == "process" || name == "required"):
			// Any process value, even "", makes git ignore clean and
			// smudge: it is given only where the repository sets one.
			p := "filter." + sub + "."
			restore(p+"clean", "")
			restore(p+"smudge", "")
			restore(p+"required", "false")
			if name == "process" {
				restore(p+"process", "")
			}
		case section == "merge" && sub != "" && name == "driver",
			section == "diff" && sub != "" && (name == "textconv" || name == "command"),
			e.Key == "diff.external",
			e.Key == "core.alternaterefscommand":
			restore(e.Key, "")
		case section == "hook" && sub != "":
			add("hook."+sub+".enabled", "false")
		case section == "credential" && name == "helper":
			helpers = true
		case e.Key == "core.sshcommand":
			if _, ok := environ["GIT_SSH_COMMAND"]; !ok {
				ssh := "ssh"
				if v := environ.Get("GIT_SSH"); v != "" {
					ssh = shell.Quote(v)
				}
				restore(e.Key, ssh)
			}
		case e.Key == "core.askpass":
			if _, ok := environ["GIT_ASKPASS"]; !ok {
				restore(e.Key, environ.Get("SSH_ASKPASS"))
			}
		case e.Key == "core.gitproxy":
			if _, ok := environ["GIT_PROXY_COMMAND"]; !ok && !done["GIT_PROXY_COMMAND"] {
				done["GIT_PROXY_COMMAND"] = true
				vars = append(vars, "GIT_PROXY_COMMAND=")
			}
		case section == "remote" && sub != "" && name == "uploadpack":
			// The first value wins (remote.c): one of the user's own,
			// read before the repository's, already does.
			switch {
			case len(user[e.Key]) > 0:
			case i < inMain:
				plan.UploadPack = appendNew(plan.UploadPack, e.Key)
			default:
				plan.SubmoduleUploadPack = appendNew(plan.SubmoduleUploadPack, e.Key)
			}
		case section == "remote" && sub != "" && name == "vcs" && e.Value != "":
			if u := user[e.Key]; len(u) == 0 || u[len(u)-1].Value != e.Value {
				add("protocol."+e.Value+".allow", "never")
			}
		case section == "protocol" && sub != "" && name == "allow":
			restore(e.Key, builtinPolicy(sub))
		case e.Key == "protocol.allow":
			if u := user[e.Key]; len(u) > 0 {
				restore(e.Key, "")
			} else {
				protocolDefaults = true
			}
		case section == "submodule" && sub != "" && name == "update" && strings.HasPrefix(e.Value, "!"):
			restore(e.Key, "checkout")
		}
	}
	if protocolDefaults {
		// Without a value of its own, protocol.allow falls back to git's
		// built-in policy per protocol: say it for each that has one, and
		// "user" (the built-in default) for the rest.
		for _, p := range []string{"http", "https", "git", "ssh", "ext"} {
			if len(user["protocol."+p+".allow"]) == 0 {
				add("protocol."+p+".allow", builtinPolicy(p))
			}
		}
		add("protocol.allow", "user")
	}
	if helpers {
		// An empty value empties the list; then the user's own, in order.
		set = append(set, Setting{"credential.helper", ""})
		for _, e := range userHelpers {
			set = append(set, Setting{e.Key, e.Value})
		}
	}
	plan.Settings, plan.Env = set, vars
	return plan
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// builtinPolicy is git's policy for a protocol no configuration names
// (transport.c, get_protocol_config).
func builtinPolicy(protocol string) string {
	switch protocol {
	case "http", "https", "git", "ssh":
		return "always"
	case "ext":
		return "never"
	}
	return "user"
}

// plan is the Plan of a command of g, always included.
func (g Git) plan(ctx context.Context) (Plan, []byte, error) {
	loc, known := locate(g)
	if known && !loc.needsList() {
		return Plan{Settings: always}, nil, nil
	}
	main, stderr, err := listing(ctx, g, loc.key(known, g.Env))
	if err != nil {
		return Plan{}, stderr, err
	}
	var others [][]Entry
	for _, m := range loc.modules {
		if !m.needsList() {
			continue
		}
		menv := withoutRepoVars(g.Env)
		list, stderr, err := listing(ctx, Git{Dir: m.gitDir, GitDir: m.gitDir, Env: menv}, m.key(true, menv))
		if err != nil {
			return Plan{}, stderr, err
		}
		others = append(others, list)
	}
	p := Neutralise(main, others, env.FromList(g.Env))
	p.Settings = append(append([]Setting{}, always...), p.Settings...)
	return p, nil, nil
}

// listing runs `git config --list --show-scope -z` for g; key ("": none)
// caches its answer for this process, which never changes the user's own
// configuration.
func listing(ctx context.Context, g Git, key string) ([]Entry, []byte, error) {
	if key != "" {
		if list, ok := listCache.Load(key); ok {
			return list.([]Entry), nil, nil
		}
	}
	out, stderr, err := run(ctx, g.Dir, append(append([]string{}, g.Env...), "GIT_TERMINAL_PROMPT=0"), nil,
		g.argv([]string{"config", "--list", "--show-scope", "-z"}))
	if err != nil {
		return nil, stderr, err
	}
	list, err := ParseList(out)
	if err != nil {
		return nil, nil, err
	}
	if key != "" {
		listCache.Store(key, list)
	}
	return list, nil, nil
}

// repoVars point git at a repository or its parts; a submodule's own
// listing must not inherit them.
var repoVars = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_PREFIX", "GIT_IMPLICIT_WORK_TREE",
}

func withoutRepoVars(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, v := range repoVars {
			drop = drop || name == v
		}
		if !drop {
			out = append(out, kv)
		}
	}
	return out
}
