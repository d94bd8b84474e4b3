package configdir

import (
	"encoding/json"
	"errors"
	"io/fs"

	"github.com/tidwall/gjson"

	"github.com/claude-account/claude-account/internal/coalesce"
	"github.com/claude-account/claude-account/internal/fsx"
	"github.com/claude-account/claude-account/internal/jsonx"
)

// WorkspaceFile binds a runtime dir to the workspace it was made for.
const WorkspaceFile = "workspace.json"

// Workspace is the body of workspace.json.
type Workspace struct {
	Account     string `json:"account"`
	AccountDir  string `json:"accountDir"`
	Toplevel    string `json:"toplevel"`
	Fingerprint string `json:"fingerprint"`
	GitDir      string `json:"gitDir"`
}

// bindingToplevel is the work tree a runtime's workspace.json names, as
// JSON.parse reads it (the last "toplevel" of a valid object); "" when it
// names none. Read on every launch, without encoding/json's reflection,
// whose first use in a process was 7% of the plan's CPU.
func bindingToplevel(data []byte) string {
	if coalesce.Validate(data) != nil {
		return ""
	}
	raw, ok := coalesce.Get(data, "toplevel")
	if !ok {
		return ""
	}
	v := gjson.ParseBytes(raw)
	if v.Type != gjson.String {
		return ""
	}
	return v.String()
}

// encode is json.MarshalIndent of ws with a final newline, without its
// reflection cost on every launch.
func (ws Workspace) encode() []byte {
	return jsonx.Object(true,
		jsonx.Field{Name: "account", Value: jsonx.String(ws.Account)},
		jsonx.Field{Name: "accountDir", Value: jsonx.String(ws.AccountDir)},
		jsonx.Field{Name: "toplevel", Value: jsonx.String(ws.Toplevel)},
		jsonx.Field{Name: "fingerprint", Value: jsonx.String(ws.Fingerprint)},
		jsonx.Field{Name: "gitDir", Value: jsonx.String(ws.GitDir)})
}

// ReadWorkspace reads a runtime's binding; (nil, nil) when there is none.
func ReadWorkspace(path string) (*Workspace, error) {
	data, err := fsx.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ws Workspace
	if err := json.Unmarshal(data, &ws); err != nil {
		// A damaged binding cannot prove the dir is someone else's; rewrite it.
		return nil, nil
	}
	return &ws, nil
}
