package diff

import (
	"encoding/json"
	"strings"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Hidden replaces a secret value in every output.
const Hidden = "(secret value hidden)"

// bookkeeping are the annotations kudo-render writes for itself, and the
// ones that only restate a Move (wave, hook, step).
var bookkeeping = []string{
	"kudorender.dev/",
	"kudo.dev/plan", "kudo.dev/phase", "kudo.dev/step",
	"argocd.argoproj.io/sync-wave", "argocd.argoproj.io/hook", "argocd.argoproj.io/hook-delete-policy",
}

// isBookkeeping reports whether an annotation key is bookkeeping.
func isBookkeeping(key string) bool {
	for _, b := range bookkeeping {
		if key == b || strings.HasSuffix(b, "/") && strings.HasPrefix(key, b) {
			return true
		}
	}
	return false
}

// Why a change is not shown.
const (
	shown = iota
	byBookkeeping
	byIgnore
)

// hidden says whether and why a change is not shown.
func hidden(kind string, p Path, opts Options) int {
	for _, r := range opts.Ignore {
		if r.matches(kind, p) {
			return byIgnore
		}
	}
	if !opts.ShowBookkeeping && len(p) >= 3 && p[0].Key == "metadata" && p[1].Key == "annotations" && isBookkeeping(p[2].Key) {
		return byBookkeeping
	}
	return shown
}

// dropBookkeeping removes the bookkeeping annotations of an object.
func dropBookkeeping(o *object.Object) {
	ann := o.MapAt("metadata", "annotations")
	for k := range ann {
		if isBookkeeping(k) {
			delete(ann, k)
		}
	}
	if ann != nil && len(ann) == 0 {
		delete(o.MapAt("metadata"), "annotations")
	}
}

func isSecret(k Key) bool { return k.Group == "" && k.Kind == "Secret" }

// secretPath reports whether a field of an object holds secret values:
// a Secret's data and stringData, and annotations that copy an object.
func secretPath(secret bool, c Change) bool {
	if secret && len(c.Path) >= 1 && (c.Path[0].Key == "data" || c.Path[0].Key == "stringData") {
		return true
	}
	if secret && len(c.Path) == 3 && c.Path[2].Key == "kudorender.dev/resource-version" {
		return true // a digest of the values
	}
	if n := len(c.Path); n >= 3 && c.Path[n-1].Key == "kudo.dev/dependencies-hash" && c.Path[n-2].Key == "annotations" {
		// KUDO's unsalted MD5 of the mounted Secrets' data: a short
		// password can be found back from it. That it changed is shown.
		return true
	}
	return len(c.Path) == 3 && c.Path[0].Key == "metadata" && c.Path[1].Key == "annotations" &&
		(copiesObject(c.Path[2].Key, c.From) || copiesObject(c.Path[2].Key, c.To))
}

// copiesObject reports whether an annotation holds a copy of an object:
// kubectl's last-applied configuration, or any JSON object with an
// apiVersion and a kind.
func copiesObject(key, value string) bool {
	if key == "kubectl.kubernetes.io/last-applied-configuration" {
		return true
	}
	v := strings.TrimSpace(value)
	if !strings.HasPrefix(v, "{") {
		return false
	}
	var m struct {
		APIVersion *string `json:"apiVersion"`
		Kind       *string `json:"kind"`
	}
	return json.Unmarshal([]byte(v), &m) == nil && m.APIVersion != nil && m.Kind != nil
}

// maskObject masks the secret values of an object shown whole.
func maskObject(k Key, o *object.Object) {
	if isSecret(k) {
		for _, f := range []string{"data", "stringData"} {
			if m, ok := o.Map[f].(map[string]any); ok {
				for key := range m {
					m[key] = Hidden
				}
			} else if _, ok := o.Map[f]; ok {
				o.Map[f] = Hidden
			}
		}
	}
	ann := o.MapAt("metadata", "annotations")
	for key, v := range ann {
		s, _ := v.(string)
		if copiesObject(key, s) || isSecret(k) && key == "kudorender.dev/resource-version" {
			ann[key] = Hidden
		}
	}
}

// field is a change as shown: masked when secret (unless
// opts.ShowSecrets), long strings line by line.
func field(c Change, secret bool, opts Options) Field {
	f := Field{Path: c.Path, Op: c.Op, From: c.From, To: c.To}
	if !opts.ShowSecrets && (secretPath(secret, c) || hasSecretValue(c.From, opts.SecretValues) || hasSecretValue(c.To, opts.SecretValues)) {
		f.Masked = true
		f.From, f.To = Hidden, Hidden
		switch c.Op {
		case OpAdded:
			f.From = ""
		case OpRemoved:
			f.To = ""
		}
		return f
	}
	if c.Text && c.Op == OpChanged && (strings.Contains(c.From, "\n") || strings.Contains(c.To, "\n")) {
		f.Lines, f.From, f.To = lines(c.From, c.To, opts.Context), "", ""
	}
	return f
}
