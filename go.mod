module github.com/claude-account/claude-account

go 1.23

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/alecthomas/kong v1.17.0
	github.com/google/renameio/v2 v2.0.1
	github.com/rogpeppe/go-internal v1.14.1
	github.com/tidwall/gjson v1.18.0
	golang.org/x/sys v0.26.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
