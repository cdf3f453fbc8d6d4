package object_test

import (
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

func TestCheckNames(t *testing.T) {
	cases := []struct {
		reason      string
		in          string
		label, inst bool // valid as a label, as an instance name
	}{
		{"plain", "zk", true, true},
		{"digits and dashes", "zk-01", true, true},
		{"dots are for subdomains", "zk.prod", false, true},
		{"upper case", "ZK", false, false},
		{"leading dash", "-zk", false, false},
		{"trailing dash", "zk-", false, false},
		{"empty part", "zk..prod", false, false},
		{"underscore", "zk_1", false, false},
		{"path", "../x", false, false},
		{"NUL", "zk\x00", false, false},
		{"empty", "", false, false},
		{"63 characters", strings.Repeat("a", 63), true, true},
		{"64 characters", strings.Repeat("a", 64), false, false},
		{"non-ASCII", "zé", false, false},
	}
	for _, tc := range cases {
		if err := object.CheckLabel(tc.in); (err == nil) != tc.label {
			t.Errorf("%s: CheckLabel(%q) = %v, want valid %t", tc.reason, tc.in, err, tc.label)
		}
		if err := object.CheckInstanceName(tc.in); (err == nil) != tc.inst {
			t.Errorf("%s: CheckInstanceName(%q) = %v, want valid %t", tc.reason, tc.in, err, tc.inst)
		}
	}
	if err := object.CheckLabel(strings.Repeat("x", 10000)); len(err.Error()) > 200 {
		t.Errorf("a hostile name must not be echoed whole: %d bytes", len(err.Error()))
	}
}
