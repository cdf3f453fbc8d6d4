package kubeversion

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		reason, in string
		want       Version
		err        string // a part of the error, "" for none
	}{
		{reason: "major.minor", in: "1.34", want: Version{1, 34}},
		{reason: "a leading v", in: "v1.34", want: Version{1, 34}},
		{reason: "a patch version is ignored", in: "1.34.4", want: Version{1, 34}},
		{reason: "v and patch", in: "v1.34.4", want: Version{1, 34}},
		{reason: "a build suffix as EKS writes it", in: "v1.29.0-eks-1234", want: Version{1, 29}},
		{reason: "a build suffix as k3s writes it", in: "v1.30.2+k3s1", want: Version{1, 30}},
		{reason: "the oldest supported", in: "1.13", want: Oldest},
		{reason: "the newest supported", in: "1.37", want: Default},
		{reason: "KUDO's own target", in: "1.16", want: Version{1, 16}},
		{reason: "empty", in: "", err: `Kubernetes version "": want MAJOR.MINOR, such as 1.37`},
		{reason: "a major version only", in: "1", err: "want MAJOR.MINOR"},
		{reason: "too many parts", in: "1.34.4.1", err: "want MAJOR.MINOR"},
		{reason: "letters", in: "1.x", err: `"x" is not a version number`},
		{reason: "a sign", in: "1.+3", err: "want MAJOR.MINOR"},
		{reason: "leading zeros", in: "1.034", err: `"034" is not a version number`},
		{reason: "an empty minor", in: "1.", err: `"" is not a version number`},
		{reason: "a huge number", in: "1.99999", err: `"99999" is not a version number`},
		{reason: "another major", in: "2.0", err: "Kubernetes has no major version 2"},
		{reason: "too old", in: "1.12", err: `Kubernetes version "1.12": older than 1.13, the oldest version kudo-render supports`},
		{reason: "too new: its removals are unknown", in: "1.38", err: `Kubernetes version "1.38": newer than 1.37, the newest version kudo-render supports`},
		{reason: "v twice", in: "vv1.34", err: `"v1" is not a version number`},
		{reason: "a suffix without patch", in: "v1.29-eks", err: "want MAJOR.MINOR"},
	} {
		got, err := Parse(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: Parse(%q): %v", tc.reason, tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: Parse(%q) = %v, %v; want an error with %q", tc.reason, tc.in, got, err, tc.err)
		case tc.err == "" && got != tc.want:
			t.Errorf("%s: Parse(%q) = %v; want %v", tc.reason, tc.in, got, tc.want)
		}
	}
}

func TestVersionString(t *testing.T) {
	for _, v := range []Version{Oldest, Default, {1, 16}} {
		back, err := Parse(v.String())
		if err != nil || back != v {
			t.Errorf("Parse(%q) = %v, %v; want %v", v.String(), back, err, v)
		}
	}
	if got := (Version{1, 9}).String(); got != "1.9" {
		t.Errorf("String() = %q", got)
	}
}

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b Version
		want int
	}{
		{Version{1, 9}, Version{1, 16}, -1},
		{Version{1, 16}, Version{1, 16}, 0},
		{Version{1, 37}, Version{1, 25}, 1},
		{Version{2, 0}, Version{1, 99}, 1},
	} {
		if got := tc.a.Compare(tc.b); got != tc.want {
			t.Errorf("%v.Compare(%v) = %d; want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
