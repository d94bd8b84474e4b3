package account

import (
	"reflect"
	"strings"
	"testing"
)

// TestUnknownKeyNamesEveryKey: the "unknown key" error lists every key
// account.toml takes, read from Config's toml tags, so a key added to Config
// cannot be left out of the message (issue 42: notify and usage once were),
// and every key has a type for the type-mismatch message.
func TestUnknownKeyNamesEveryKey(t *testing.T) {
	_, err := Parse([]byte("bogus = 1\n"), "account.toml")
	if err == nil {
		t.Fatal("Parse accepted an unknown key")
	}
	msg := err.Error()
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, prefix string) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "" || name == "-" {
				continue
			}
			if _, ok := keyTypes[prefix+name]; !ok {
				t.Errorf("keyTypes has no entry for %s%s", prefix, name)
			}
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if !strings.Contains(msg, "["+name+"]") {
					t.Errorf("the unknown-key message does not name the table [%s]: %s", name, msg)
				}
				walk(ft, name+".")
				continue
			}
			if !strings.Contains(msg, " "+name+",") && !strings.Contains(msg, " "+name+" ") && !strings.HasSuffix(msg, " "+name) {
				t.Errorf("the unknown-key message does not name %s%s: %s", prefix, name, msg)
			}
		}
	}
	walk(reflect.TypeOf(Config{}), "")
}
