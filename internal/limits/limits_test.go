package limits_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kudo-render/kudo-render/internal/limits"
)

func TestEveryFieldHasASpec(t *testing.T) {
	typ := reflect.TypeFor[limits.Limits]()
	for i := range typ.NumField() {
		if _, ok := limits.Lookup(typ.Field(i).Name); !ok {
			t.Errorf("field %s has no entry in limits.Table", typ.Field(i).Name)
		}
	}
	if len(limits.Table) != typ.NumField() {
		t.Errorf("Table has %d entries, Limits %d fields", len(limits.Table), typ.NumField())
	}
	d := limits.Default()
	for _, s := range limits.Table {
		if d.Get(s.Name) != s.Default || s.Default <= 0 {
			t.Errorf("%s: default %d, spec %d", s.Name, d.Get(s.Name), s.Default)
		}
	}
}

func TestSet(t *testing.T) {
	cases := []struct {
		reason, name, text string
		want               int64
		err                string
	}{
		{"plain bytes", "file-bytes", "100", 100, ""},
		{"binary suffix", "template-bytes", "2Mi", 2 << 20, ""},
		{"a duration", "git-timeout", "30s", int64(30 * time.Second), ""},
		{"zero timeout means never", "timeout", "0s", 0, ""},
		{"negative duration", "timeout", "-1s", 0, "must not be negative"},
		{"zero size", "file-bytes", "0", 0, "positive whole number"},
		{"garbage", "list-items", "lots", 0, "positive whole number"},
		{"overflow", "file-bytes", "9999999999999Gi", 0, "positive whole number"},
		{"unknown", "nope", "1", 0, "unknown limit"},
	}
	for _, tc := range cases {
		l := limits.Default()
		err := l.Set(tc.name, tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, want an error with %q", tc.reason, err, tc.err)
			}
			continue
		}
		if err != nil || l.Get(tc.name) != tc.want {
			t.Errorf("%s: got %d, %v; want %d", tc.reason, l.Get(tc.name), err, tc.want)
		}
	}
}

func TestFromEnv(t *testing.T) {
	l := limits.Default()
	env := map[string]string{"KUDO_RENDER_MAX_YAML_DEPTH": "7", "KUDO_RENDER_TIMEOUT": "1m"}
	if err := l.FromEnv(func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if l.YAMLDepth != 7 || l.Timeout != time.Minute {
		t.Errorf("got %+v", l)
	}
	env["KUDO_RENDER_MAX_KRM_ITEMS"] = "x"
	if err := l.FromEnv(func(k string) string { return env[k] }); err == nil || !strings.Contains(err.Error(), "KUDO_RENDER_MAX_KRM_ITEMS") {
		t.Errorf("a bad value must name its variable, got %v", err)
	}
}

func ExampleErr() {
	fmt.Println(limits.Err("template-bytes", limits.Default().TemplateBytes, "templates/cm.yaml"))
	// Output: templates/cm.yaml: template output exceeds the limit of 16777216 bytes (raise it with --max-template-bytes or KUDO_RENDER_MAX_TEMPLATE_BYTES)
}
