package migrate

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/kudo-render/kudo-render/internal/visible"
)

// Every name Import takes from an export and writes (into a path, a
// comment, a file's text or a message) is checked first as Kubernetes
// checks the name it is, and refused naming the object and the field:
//
//   - OperatorVersion and Operator names (an Instance's
//     spec.operatorVersion.name, an OperatorVersion's spec.operator.name,
//     the Instance an ownerReference names) are object names: DNS-1123
//     subdomains;
//   - an OperatorVersion's spec.version is part of its name (KUDO names it
//     <operator>-[<appVersion>-]<version>): a DNS-1123 subdomain too;
//   - template file names and parameter names are keys of the
//     OperatorVersion's maps, checked as ConfigMap keys are (letters,
//     digits, '-', '_' and '.'), each segment of a template's path on its
//     own, and never ".git" in any case.
//
// So no name can hold a separator, "..", a line break, an escape sequence
// or any other control character. Text Import writes around names still
// escapes them ([visible.Escape]), in comments and messages alike.

// checkObjectName checks the name of a Kubernetes object.
func checkObjectName(s string) error {
	return invalid(s, validation.IsDNS1123Subdomain(s))
}

// checkVersion checks an OperatorVersion's spec.version: a part of the
// OperatorVersion's name, and a folder of the rebuilt package.
func checkVersion(s string) error {
	if errs := validation.IsDNS1123Subdomain(s); len(errs) > 0 {
		return invalid(s, append(errs, "it is part of the OperatorVersion's name (<operator>-[<appVersion>-]<version>)"))
	}
	return nil
}

// checkKey checks a parameter name or a segment of a template's path.
func checkKey(s string) error {
	errs := validation.IsConfigMapKey(s)
	if strings.EqualFold(s, ".git") {
		errs = append(errs, "a folder or file named .git is git's own")
	}
	return invalid(s, errs)
}

// checkTemplateName checks a template's name: a relative path of keys
// (checkKey), which stays in templates/.
func checkTemplateName(name string) error {
	if name == "" {
		return invalid(name, []string{"is empty"})
	}
	for _, seg := range strings.Split(name, "/") {
		if err := checkKey(seg); err != nil {
			return err
		}
	}
	return nil
}

// invalid is the error of s for the messages of Kubernetes' validation.
func invalid(s string, errs []string) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s is invalid: %s", quote(s), strings.Join(errs, "; "))
}

// quote quotes at most 80 bytes of a hostile name, escaped.
func quote(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:80]) + "..."
	}
	return strconv.Quote(s)
}

// named is an object in messages and comments: its kind and
// namespace/name, with every character that would act instead of showing
// itself (a line break, an escape sequence, a bidirectional override)
// escaped.
func named(kind, namespace, name string) string {
	return kind + " " + visible.Escape(Key(namespace, name))
}
