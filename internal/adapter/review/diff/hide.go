package diff

import (
	"strconv"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/adapter/flux"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/postprocess/digest"
	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// AnnDependencies is KUDO's digest of the Secrets and ConfigMaps a pod
// template mounts.
const AnnDependencies = enhance.AnnDependencies

// restates reports whether an annotation is bookkeeping: one kudo-render
// writes itself, with the value it writes for the item (its wave, hook,
// step, provenance, digests), which the moves already report or which
// only kudo-render reads. The same key written by a template with
// another value (a sync wave, a hook that makes the object run once) is a
// change like any other.
func restates(key, value string, it *engine.Item) bool {
	if it == nil {
		return false
	}
	switch key {
	case argocd.AnnSyncWave:
		return value == strconv.Itoa(it.Wave)
	case argocd.AnnHook:
		return it.Hook && value == "Sync"
	case argocd.AnnHookDeletePolicy:
		return it.Hook && value == "HookSucceeded"
	case argocd.AnnSyncOptions:
		return value == argocd.SyncOptions(*it)
	case flux.AnnForce:
		return value == "enabled" && flux.Forced(*it)
	case enhance.AnnPlan:
		return value == it.Meta.Plan
	case enhance.AnnPhase:
		return value == it.Meta.Phase
	case enhance.AnnStep:
		return value == it.Meta.Step
	case enhance.AnnSource:
		return value == it.Meta.Source
	case enhance.AnnTemplate:
		return value == it.Meta.Template
	case enhance.AnnOrigin:
		return value == it.Meta.Origin
	case digest.AnnResourceVersion, digest.AnnProcessedBy:
		return true // always written last, over whatever was there
	}
	return false
}

// Why a change is not shown.
const (
	shown = iota
	byBookkeeping
	byIgnore
)

// hidden says whether and why a change between the items a and b is not
// shown.
func hidden(kind string, c Change, a, b *engine.Item, opts Options) int {
	for _, r := range opts.Ignore {
		if r.matches(kind, c.Path) {
			return byIgnore
		}
	}
	p := c.Path
	if opts.ShowBookkeeping || len(p) != 3 || p[0].Key != "metadata" || p[1].Key != "annotations" {
		return shown
	}
	if (c.Op == OpAdded || restates(p[2].Key, c.From, a)) && (c.Op == OpRemoved || restates(p[2].Key, c.To, b)) {
		return byBookkeeping
	}
	return shown
}

// dropBookkeeping removes the bookkeeping annotations of an object.
func dropBookkeeping(o *object.Object, it *engine.Item) {
	ann := o.MapAt("metadata", "annotations")
	for k, v := range ann {
		if s, ok := v.(string); ok && restates(k, s, it) {
			delete(ann, k)
		}
	}
	if ann != nil && len(ann) == 0 {
		delete(o.MapAt("metadata"), "annotations")
	}
}

func isSecret(k Key) bool { return k.Group == "" && k.Kind == "Secret" }

// digestOfSecrets reports whether an annotation is a digest over secret
// data: KUDO's dependencies hash (an unsalted MD5 of the mounted Secrets:
// a short password can be found back from it), the resource version and
// the processed-by marker (which ends with it) of an object that holds a
// secret (holder, asked only then).
func (s *secrets) digestOfSecrets(key string, holder func() bool) bool {
	switch key {
	case AnnDependencies:
		return true
	case digest.AnnResourceVersion, digest.AnnProcessedBy:
		return holder()
	}
	return false
}

// secretPath reports whether a change is of a field that holds secret
// values: a Secret's data and stringData, a digest of secret data, and
// annotations that copy an object.
func (s *secrets) secretPath(k Key, holder func() bool, c Change) bool {
	if isSecret(k) && len(c.Path) >= 1 && (c.Path[0].Key == "data" || c.Path[0].Key == "stringData") {
		return true
	}
	n := len(c.Path)
	if n >= 3 && c.Path[n-2].Key == "annotations" && s.digestOfSecrets(c.Path[n-1].Key, holder) {
		return true // that it changed is still shown (pods roll)
	}
	return n == 3 && c.Path[0].Key == "metadata" && c.Path[1].Key == "annotations" &&
		(copiesObject(c.Path[2].Key, c.From) || copiesObject(c.Path[2].Key, c.To))
}

// maskObject masks the secret values of an object shown whole.
func (s *secrets) maskObject(k Key, o *object.Object) {
	holder := sync.OnceValue(func() bool { return s.holds(k, o) })
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
	maskAnnotations(o.MapAt("metadata", "annotations"), func(key, v string) bool {
		return copiesObject(key, v) || s.digestOfSecrets(key, holder)
	})
	for _, pt := range podTemplateAnnotations(o) {
		maskAnnotations(pt, func(key, _ string) bool { return key == AnnDependencies })
	}
	s.set.MaskValue(o.Map)
}

func maskAnnotations(ann map[string]any, secret func(key, v string) bool) {
	for key, v := range ann {
		str, _ := v.(string)
		if secret(key, str) {
			ann[key] = Hidden
		}
	}
}

// podTemplateAnnotations are the annotations of the pod templates of an
// object, wherever a workload keeps them.
func podTemplateAnnotations(o *object.Object) []map[string]any {
	var out []map[string]any
	for _, p := range [][]string{{"spec", "template"}, {"spec", "jobTemplate", "spec", "template"}} {
		if m, ok := object.Get(o.Map, append(p, "metadata", "annotations")...).(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// field is a change as shown: masked when secret (unless
// opts.ShowSecrets), long strings line by line.
func (s *secrets) field(k Key, holder func() bool, c Change, opts Options) Field {
	f := Field{Path: s.path(c.Path), Op: c.Op, From: c.From, To: c.To}
	if !s.show && (s.secretPath(k, holder, c) || s.value(c.From, c.Text) || s.value(c.To, c.Text)) {
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
