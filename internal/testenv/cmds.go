package testenv

import "github.com/rogpeppe/go-internal/testscript"

// Commands are the scripts' own commands.
func Commands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"mkrepo":      mkrepo,
		"mkworktree":  mkworktree,
		"mksubmodule": mksubmodule,
		"mkbare":      mkbare,
		"readlink":    readlinkCmd,
		"issymlink":   issymlink,
		"mode":        modeCmd,
		"jsonpath":    jsonpath,
		"waitfile":    waitfile,
		"waitgone":    waitgone,
		"sendsig":     sendsig,
		"snapshot":    snapshot,
		"unchanged":   unchanged,
		"apistub":     apistub,
		"apitext":     apitext,
		"apiauth":     apiauth,
		"endsas":      endsas,
		"mkclaude":    mkclaude,
		"archivedir":  archivedir,
		"suggested":   suggested,
		"ondone":      ondone,
		"clock":       clock,
		"subst":       subst,
		"killtmux":    killtmux,
		"tmuxsay":     tmuxsay,
		"tmuxquit":    tmuxquit,
		"tmuxstart":   tmuxstart,
		"tmuxwait":    tmuxwait,
		"stopfleet":   stopfleet,
	}
}
