package coalesce

import (
	"errors"
	"testing"
)

func TestSettings(t *testing.T) {
	const declared = `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "statusLine": {"type": "command", "command": "status"},
  "env": {"FOO": "1"}
}`
	for _, tc := range []struct {
		name     string
		runtime  string
		declared string
		previous []string
		want     string // == runtime: unchanged
	}{
		{
			name:     "first launch",
			runtime:  ``,
			declared: declared,
			want: `{
  "permissions": {
    "allow": [
      "Bash(go test:*)"
    ]
  },
  "statusLine": {
    "type": "command",
    "command": "status"
  },
  "env": {
    "FOO": "1"
  }
}
`,
		},
		{
			name: "in sync, Claude's keys kept",
			runtime: `{
  "permissions": {
    "allow": [
      "Bash(go test:*)"
    ]
  },
  "model": "opus",
  "statusLine": {
    "command": "status",
    "type": "command"
  },
  "env": {
    "FOO": "1"
  },
  "effortLevel": "high"
}`,
			declared: declared,
			previous: []string{"permissions", "statusLine", "env"},
			want: `{
  "permissions": {
    "allow": [
      "Bash(go test:*)"
    ]
  },
  "model": "opus",
  "statusLine": {
    "command": "status",
    "type": "command"
  },
  "env": {
    "FOO": "1"
  },
  "effortLevel": "high"
}`,
		},
		{
			name: "managed key Claude changed is restored, Claude's keys kept",
			runtime: `{
  "permissions": {
    "allow": [
      "Bash(go test:*)",
      "Bash(rm -rf:*)"
    ]
  },
  "model": "opus",
  "env": {
    "FOO": "1"
  }
}`,
			declared: declared,
			want: `{
  "permissions": {
    "allow": [
      "Bash(go test:*)"
    ]
  },
  "model": "opus",
  "env": {
    "FOO": "1"
  },
  "statusLine": {
    "type": "command",
    "command": "status"
  }
}`,
		},
		{
			name:     "previously declared keys are dropped, others kept",
			runtime:  `{"model":"opus","hooks":{"Stop":[]},"env":{"FOO":"1"},"alwaysThinkingEnabled":true}`,
			declared: `{"env":{"FOO":"1"}}`,
			previous: []string{"hooks", "env", "statusLine"},
			want:     `{"model":"opus","env":{"FOO":"1"},"alwaysThinkingEnabled":true}`,
		},
		{
			name:     "nothing declared any more",
			runtime:  `{"model":"opus","env":{"FOO":"1"}}`,
			declared: ``,
			previous: []string{"env"},
			want:     `{"model":"opus"}`,
		},
		{
			name:     "declared name given twice: the last value",
			runtime:  `{"a":1}`,
			declared: `{"a":2,"b":3,"a":4}`,
			want:     `{"a":4,"b":3}`,
		},
		{
			name:     "escaped declared name matches the runtime's plain one",
			runtime:  `{"model":"opus","effortLevel":"low"}`,
			declared: `{"effort\u004cevel":"high"}`,
			want:     `{"model":"opus","effortLevel":"high"}`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := Settings([]byte(tc.runtime), []byte(tc.declared), tc.previous)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", out, tc.want)
			}
			if want := tc.want != tc.runtime; changed != want {
				t.Errorf("changed = %v, want %v", changed, want)
			}
			again, changed, err := Settings(out, []byte(tc.declared), tc.previous)
			if err != nil || changed || string(again) != string(out) {
				t.Errorf("second run: changed=%v err=%v\n%s", changed, err, again)
			}
		})
	}
}

func TestSettingsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, runtime, declared, want string
		syntax                        bool
	}{
		{
			name:     "invalid declared",
			runtime:  `{}`,
			declared: "{\n  \"env\": {\"A\": 1,}\n}",
			want:     "declared settings: line 2, column 18: invalid character '}' looking for beginning of object key string",
			syntax:   true,
		},
		{
			name:     "declared is not an object",
			runtime:  `{}`,
			declared: `["env"]`,
			want:     "declared settings: top-level value is an array, want an object",
		},
		{
			name:     "invalid runtime",
			runtime:  `{"model": "opus",}`,
			declared: `{"env":{}}`,
			want:     "line 1, column 18: invalid character '}' looking for beginning of object key string",
			syntax:   true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runtime := []byte(tc.runtime)
			_, _, err := Settings(runtime, []byte(tc.declared), nil)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error %v, want %s", err, tc.want)
			}
			var se *SyntaxError
			if errors.As(err, &se) != tc.syntax {
				t.Errorf("SyntaxError: %v", !tc.syntax)
			}
			if string(runtime) != tc.runtime {
				t.Error("runtime modified")
			}
		})
	}
}
