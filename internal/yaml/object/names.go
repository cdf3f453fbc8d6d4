package object

import "fmt"

// Lengths of Kubernetes names.
const (
	MaxLabelLen     = 63  // DNS-1123 label: namespaces, label values
	MaxSubdomainLen = 253 // DNS-1123 subdomain: most object names
)

// CheckLabel checks s as a DNS-1123 label (a namespace): lower-case
// letters, digits and '-', starting and ending with a letter or digit, at
// most 63 characters.
func CheckLabel(s string) error {
	if s == "" {
		return fmt.Errorf("is empty")
	}
	if len(s) > MaxLabelLen {
		return fmt.Errorf("%q is longer than %d characters", short(s), MaxLabelLen)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !alnum(c) && (c != '-' || i == 0 || i == len(s)-1) {
			return fmt.Errorf("%q is not a DNS-1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit)", short(s))
		}
	}
	return nil
}

// CheckInstanceName checks the name of an instance: a DNS-1123 subdomain
// (lower-case letters, digits, '-' and '.', each dot-separated part
// starting and ending with a letter or digit) that also fits in a label
// value (63 characters), since objects carry it in kudo.dev/instance.
func CheckInstanceName(s string) error {
	if s == "" {
		return fmt.Errorf("is empty")
	}
	if len(s) > MaxLabelLen {
		return fmt.Errorf("%q is longer than %d characters (it is the value of the kudo.dev/instance label)", short(s), MaxLabelLen)
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			continue
		}
		part := s[start:i]
		if part == "" || !alnum(part[0]) || !alnum(part[len(part)-1]) {
			return fmt.Errorf("%q is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', each part starting and ending with a letter or digit)", short(s))
		}
		for j := 0; j < len(part); j++ {
			if !alnum(part[j]) && part[j] != '-' {
				return fmt.Errorf("%q is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', each part starting and ending with a letter or digit)", short(s))
			}
		}
		start = i + 1
	}
	return nil
}

func alnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// short quotes at most 80 bytes of a hostile name.
func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
