package refs

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Options tune Resolve and ExpandComposables.
type Options struct {
	// FailOnSecretCopy: what to do when a value is copied out of a Secret
	// into a non-Secret object (where it lands in git in clear text): warn
	// (false, the default) or fail with a *SecretCopyError (true).
	FailOnSecretCopy bool
	// Warn receives warnings, one message each; nil discards them. They are
	// only given when Resolve succeeds.
	Warn func(msg string)
	// Warning, when set, receives the warnings instead of Warn, each with
	// the object of objs it is about (the one a value was copied into), so
	// that the warning can be carried on it.
	Warning func(obj *object.Object, d *diag.Diagnostic)
	// Edge, when set, is told of every resolved reference: the object that
	// reads, the object read and the field of the reference.
	Edge func(from, to *object.Object, field string)
	// SecretCopy, when set, is told of every field of a non-Secret object
	// whose value was copied out of a Secret, directly or through other
	// references and transformers, with that value; only when Resolve
	// succeeds.
	SecretCopy func(obj *object.Object, field string, value any)
	// Budget is the render's: every value a reference copies is charged
	// to it (values and bytes) before it is copied, so references to
	// references cannot multiply an object past it. Nil bounds nothing.
	Budget *limits.Budget
}

// Resolve replaces every getValueFrom reference in objs, in place, by its
// value. lookup are extra objects that references can point at but that are
// not modified (KRM input items); objs are both targets and sources.
//
// All or nothing: on error the objects are left unchanged, and the error
// reports every reference that could not be resolved (errors.Join when
// there are several). Use errors.As with the error types of this package,
// or IsIllFormedRef, IsKindNotFound, IsObjectNotFound, IsValueNotFound and
// IsRefNotFound.
func Resolve(objs []*object.Object, lookup []*object.Object, opts Options) error {
	_, err := resolve(objs, lookup, nil, opts)
	return err
}

// seg is one step of a field path: a map key or a list index.
type seg struct {
	key   string
	idx   int
	isIdx bool
}

func compareSeg(a, b seg) int {
	if a.isIdx != b.isIdx {
		if a.isIdx {
			return 1
		}
		return -1
	}
	if a.isIdx {
		return cmp.Compare(a.idx, b.idx)
	}
	return strings.Compare(a.key, b.key)
}

// pathString renders a field path: spec.ports[0].port,
// metadata.annotations["kudo.dev/plan"].
func pathString(p []seg) string {
	if len(p) == 0 {
		return "(the whole object)"
	}
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.isIdx:
			fmt.Fprintf(&b, "[%d]", s.idx)
		case plainKey(s.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		default:
			fmt.Fprintf(&b, "[%q]", s.key)
		}
	}
	return b.String()
}

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		if !(c == '_' || c == '-' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// Reference states.
const (
	stateNew = iota
	stateVisiting
	stateDone
	stateFailed
)

// ref is one getValueFrom in one object.
type ref struct {
	doc    *doc
	path   []seg
	parent any // map[string]any or []any holding the reference
	at     seg // its key or index in parent
	raw    any // the value of getValueFrom
	bad    string
	state  uint8
	stackP int
	// secret is the Secret the value was copied out of, directly or
	// through other references; nil when none.
	secret *doc
}

// value is the value the reference was replaced by.
func (x *ref) value() any {
	switch p := x.parent.(type) {
	case map[string]any:
		return p[x.at.key]
	case []any:
		return p[x.at.idx]
	}
	return nil
}

func (x *ref) set(v any) {
	switch p := x.parent.(type) {
	case map[string]any:
		p[x.at.key] = v
	case []any:
		p[x.at.idx] = v
	}
}

// node is a trie of the references of one object, by field path.
type node struct {
	kids   map[seg]*node
	order  []seg // keys of kids, in sorted order
	ref    *ref
	done   bool // every reference at and below the node is resolved
	secret *doc // when done: a Secret one of them took its value from
}

// doc is one object of the render.
type doc struct {
	orig     *object.Object
	work     map[string]any // a copy when the object holds references
	copied   bool
	emit     bool   // from objs (written back) rather than lookup
	origin   string // e.g. "spec.template of Composable ns/name"
	gk       gk
	indexed  bool
	refs     []*ref // sorted by path
	trie     node
	identity bool   // an identifying field holds a reference
	crd      bool   // a CustomResourceDefinition (as written)
	label    string // the object as written, when it holds references
}

type objKey struct {
	gk
	ns, name string
}

type labelKey struct {
	gk
	ns, k, v string
}

// errReported: the failure was recorded already (or is the consequence of
// one that was).
var errReported = errors.New("reported")

type resolver struct {
	opts    Options
	docs    []*doc
	paths   map[string]*compiledPath
	kinds   *kindTable
	byName  map[objKey][]*doc
	byLabel map[labelKey][]*doc
	stack   []*ref
	errs    []error
	// stop is the error that ends resolution at once (the budget is
	// spent): every further reference would fail the same way.
	stop error
	// ops counts index probes, trie steps and candidate checks: the work
	// of resolution apart from copying and evaluating, which is linear in
	// the size of the objects. Tests check it grows linearly.
	ops int
}

// resolve is Resolve with provenance for the error messages of expanded
// Composables. It returns the resolver, for its kind table.
func resolve(objs, lookup []*object.Object, origins map[*object.Object]string, opts Options) (*resolver, error) {
	r := &resolver{opts: opts, paths: map[string]*compiledPath{}}
	r.addDocs(objs, lookup, origins)
	for _, d := range r.docs {
		r.scan(d)
	}
	if err := r.err(); err != nil {
		return nil, err
	}
	if err := r.resolveIdentities(); err != nil {
		return nil, err
	}
	if err := r.resolveOthers(); err != nil {
		return nil, err
	}
	warnings, err := r.secretCopies()
	if err != nil {
		return nil, err
	}
	for _, d := range r.docs {
		if d.emit && d.copied {
			clear(d.orig.Map)
			maps.Copy(d.orig.Map, d.work)
		}
	}
	for _, w := range warnings {
		switch {
		case opts.Warning != nil:
			for _, d := range w.err.Diagnostics() {
				d.Severity = diag.SeverityWarning
				opts.Warning(w.obj, d)
			}
		case opts.Warn != nil:
			opts.Warn(w.err.Error())
		}
	}
	return r, nil
}

// addDocs adds the objects of objs (written back) and lookup (read only),
// each once, with their origins.
func (r *resolver) addDocs(objs, lookup []*object.Object, origins map[*object.Object]string) {
	seen := map[*object.Object]bool{}
	add := func(o *object.Object, emit bool) {
		if o == nil || seen[o] {
			return
		}
		seen[o] = true
		r.docs = append(r.docs, &doc{orig: o, work: o.Map, emit: emit, origin: origins[o]})
	}
	for _, o := range objs {
		add(o, true)
	}
	for _, o := range lookup {
		add(o, false)
	}
}

// resolveIdentities is phase 1: references in identifying fields
// (apiVersion, kind, metadata.name, metadata.namespace, metadata.labels,
// the names and scope of a CRD) of objs, against the objects whose
// identifying fields hold no reference. Those of lookup objects are not
// resolved: a lookup object is found by its identifying fields as they
// are.
func (r *resolver) resolveIdentities() error {
	var static []*doc
	for _, d := range r.docs {
		if !d.identity {
			static = append(static, d)
		}
	}
	if len(static) == len(r.docs) {
		return nil
	}
	r.index(static)
	for _, d := range r.docs {
		if !d.emit {
			continue // lookup objects are found by their identity as written
		}
		for _, x := range d.refs {
			if identityField(x.path, d.crd) {
				_ = r.resolveRef(x)
			}
		}
	}
	return r.err()
}

// resolveOthers is phase 2: every other reference of objs, against all
// objects; those of lookup objects only when something reads them.
func (r *resolver) resolveOthers() error {
	r.index(r.docs)
	for _, d := range r.docs {
		if !d.emit {
			continue
		}
		for _, x := range d.refs {
			_ = r.resolveRef(x)
		}
	}
	return r.err()
}

// copyWarning is a value copied out of a Secret into obj.
type copyWarning struct {
	obj *object.Object
	err *SecretCopyError
}

// secretCopies finds the values copied out of a Secret into another
// object of objs: warnings, or errors with Options.FailOnSecretCopy.
func (r *resolver) secretCopies() ([]copyWarning, error) {
	var warnings []copyWarning
	for _, d := range r.docs {
		if !d.emit || isSecret(d.gk) {
			continue
		}
		for _, x := range d.refs {
			if x.secret == nil {
				continue
			}
			if r.opts.SecretCopy != nil {
				r.opts.SecretCopy(d.orig, pathString(x.path), x.value())
			}
			e := &SecretCopyError{Ref: r.where(x), Secret: r.describe(x.secret)}
			if r.opts.FailOnSecretCopy {
				r.errs = append(r.errs, e)
			} else {
				warnings = append(warnings, copyWarning{d.orig, e})
			}
		}
	}
	return warnings, r.err()
}

func (r *resolver) err() error {
	if r.stop != nil {
		return r.stop
	}
	switch len(r.errs) {
	case 0:
		return nil
	case 1:
		return r.errs[0]
	}
	return errors.Join(r.errs...)
}

func (d *doc) isCRD() bool {
	k, _ := gkOf(d.work)
	return k == gk{"apiextensions.k8s.io", "CustomResourceDefinition"}
}

// identityField reports whether a reference at p sets a field that
// identifies the object (and so decides whether other references find it).
func identityField(p []seg, crd bool) bool {
	if len(p) == 0 || p[0].isIdx {
		return len(p) == 0
	}
	second := func(names ...string) bool {
		return len(p) == 1 || (!p[1].isIdx && slices.Contains(names, p[1].key))
	}
	switch p[0].key {
	case "apiVersion", "kind":
		return true
	case "metadata":
		return second("name", "namespace", "labels")
	case "spec":
		return crd && second("group", "names", "scope")
	}
	return false
}

var metadataNamespace = []seg{{key: "metadata"}, {key: "namespace"}}

// scan finds the references of d. An object holding references is
// copied, so that a failed render leaves it unchanged.
func (r *resolver) scan(d *doc) {
	if d.work == nil {
		return
	}
	if _, ok := d.work["getValueFrom"]; ok {
		r.errs = append(r.errs, &IllFormedRefError{
			Ref:    Ref{Object: r.describe(d), Resource: resourceOf(d.work), Field: pathString(nil), Wanted: wanted(d.work["getValueFrom"])},
			Reason: "an object cannot be a reference as a whole",
		})
		return
	}
	crd := d.isCRD()
	d.crd = crd
	if !hasRef(d.work, seg{}, crd) {
		return
	}
	d.label = r.describe(d) // as written: for the watchdog, which reads it on another goroutine
	d.work = r.copyWalk(d, nil, seg{}, d.work, nil, crd).(map[string]any)
	d.copied = true
	slices.SortFunc(d.refs, func(a, b *ref) int { return slices.CompareFunc(a.path, b.path, compareSeg) })
	for _, x := range d.refs {
		n := &d.trie
		for _, s := range x.path {
			c := n.kids[s]
			if c == nil {
				if n.kids == nil {
					n.kids = map[seg]*node{}
				}
				c = &node{}
				n.kids[s] = c
				n.order = append(n.order, s)
			}
			n = c
		}
		n.ref = x
		if identityField(x.path, crd) {
			d.identity = true
		}
	}
}

// hasRef reports whether v holds a getValueFrom. at is v's key or index.
func hasRef(v any, at seg, crd bool) bool {
	switch t := v.(type) {
	case map[string]any:
		if _, ok := t["getValueFrom"]; ok {
			return true
		}
		if crd && !at.isIdx && at.key == "openAPIV3Schema" {
			return false
		}
		for k, c := range t {
			if hasRef(c, seg{key: k}, crd) {
				return true
			}
		}
	case []any:
		for i, c := range t {
			if hasRef(c, seg{idx: i, isIdx: true}, crd) {
				return true
			}
		}
	}
	return false
}

// copyWalk returns a copy of v (as copyValue does) and records the
// references in the copy; v is at path in parent (the parent's copy). The
// schemas of a CustomResourceDefinition are not searched: a property named
// getValueFrom (Composable's own CRD has one) is not a reference.
func (r *resolver) copyWalk(d *doc, parent any, at seg, v any, path []seg, crd bool) any {
	switch t := v.(type) {
	case map[string]any:
		if g, ok := t["getValueFrom"]; ok && parent != nil {
			x := &ref{doc: d, path: slices.Clone(path), parent: parent, at: at, raw: copyValue(g)}
			if len(t) > 1 {
				others := slices.Sorted(maps.Keys(t))
				others = slices.DeleteFunc(others, func(k string) bool { return k == "getValueFrom" })
				x.bad = fmt.Sprintf("getValueFrom must be the only key of its mapping, found beside %s", strings.Join(others, ", "))
			}
			d.refs = append(d.refs, x)
			return copyValue(t)
		}
		if crd && !at.isIdx && at.key == "openAPIV3Schema" {
			return copyValue(t)
		}
		out := make(map[string]any, len(t))
		for k, c := range t {
			s := seg{key: k}
			out[k] = r.copyWalk(d, out, s, c, append(path, s), crd)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			s := seg{idx: i, isIdx: true}
			out[i] = r.copyWalk(d, out, s, c, append(path, s), crd)
		}
		return out
	default:
		return copyValue(v)
	}
}

// index builds the kind table and the object indexes of docs: by
// group/kind/namespace/name and by group/kind/namespace/label. Each object
// is indexed once; a reference then costs one probe by name, or a scan of
// the shortest posting list of its labels.
func (r *resolver) index(docs []*doc) {
	var indexed []*doc
	for _, d := range docs {
		d.gk, d.indexed = gkOf(d.work)
		if d.indexed {
			indexed = append(indexed, d)
		}
	}
	r.kinds = kindsOf(indexed)
	if !slices.ContainsFunc(r.docs, func(d *doc) bool { return d.emit && len(d.refs) > 0 }) {
		return // no reference to look up (kinds alone serve Composable)
	}
	r.byName = make(map[objKey][]*doc, len(indexed))
	r.byLabel = map[labelKey][]*doc{}
	for _, d := range indexed {
		ns := ""
		if r.kinds.byGK[d.gk].namespaced {
			ns, _ = object.Get(d.work, "metadata", "namespace").(string)
		}
		name, _ := object.Get(d.work, "metadata", "name").(string)
		k := objKey{d.gk, ns, name}
		r.byName[k] = append(r.byName[k], d)
		labels, _ := object.Get(d.work, "metadata", "labels").(map[string]any)
		for lk, lv := range labels {
			if s, ok := lv.(string); ok {
				k := labelKey{d.gk, ns, lk, s}
				r.byLabel[k] = append(r.byLabel[k], d)
			}
		}
	}
}

// find returns the objects of kind ki in namespace ns that the reference
// selects.
func (r *resolver) find(ki *kindInfo, ns string, sp *spec) []*doc {
	r.ops++
	if sp.name != "" {
		return r.byName[objKey{ki.gk, ns, sp.name}]
	}
	var best []*doc
	first := true
	for k, v := range sp.labels {
		r.ops++
		l := r.byLabel[labelKey{ki.gk, ns, k, v}]
		if first || len(l) < len(best) {
			best, first = l, false
		}
		if len(best) == 0 {
			return nil
		}
	}
	var out []*doc
	for _, d := range best {
		r.ops++
		labels, _ := object.Get(d.work, "metadata", "labels").(map[string]any)
		match := true
		for k, v := range sp.labels {
			if s, ok := labels[k].(string); !ok || s != v {
				match = false
				break
			}
		}
		if match {
			out = append(out, d)
		}
	}
	return out
}

// resolveRef resolves x and what it depends on, depth first. Failures are
// recorded in r.errs once; callers get errReported.
func (r *resolver) resolveRef(x *ref) error {
	switch x.state {
	case stateDone:
		return nil
	case stateFailed:
		return errReported
	case stateVisiting:
		cycle := &CycleError{}
		for _, y := range r.stack[x.stackP:] {
			cycle.Refs = append(cycle.Refs, r.where(y))
		}
		cycle.Refs = append(cycle.Refs, r.where(x))
		r.errs = append(r.errs, cycle)
		return errReported
	}
	x.state = stateVisiting
	x.stackP = len(r.stack)
	r.stack = append(r.stack, x)
	// only what does not change while references resolve: the watchdog
	// calls it on another goroutine
	done := activity.DoingFunc(func() string {
		return "resolving the getValueFrom reference at " + pathString(x.path) + " of " + x.doc.label
	})
	err := r.compute(x)
	done()
	r.stack = r.stack[:len(r.stack)-1]
	if err != nil {
		if err != errReported {
			r.errs = append(r.errs, err)
		}
		x.state = stateFailed
		return errReported
	}
	x.state = stateDone
	return nil
}

// deps resolves the references of d that a read of the fields at prefix
// can see: those at a parent of prefix and those below it. It returns a
// Secret one of them took its value from.
func (r *resolver) deps(d *doc, prefix []seg) (*doc, error) {
	n := &d.trie
	for _, s := range prefix {
		r.ops++
		if n.ref != nil {
			err := r.resolveRef(n.ref)
			return n.ref.secret, err
		}
		if n = n.kids[s]; n == nil {
			return nil, nil
		}
	}
	return r.subtree(n)
}

func (r *resolver) subtree(n *node) (*doc, error) {
	r.ops++
	if n.done {
		return n.secret, nil
	}
	var secret *doc
	if n.ref != nil {
		if err := r.resolveRef(n.ref); err != nil {
			return nil, err
		}
		secret = n.ref.secret
	}
	for _, s := range n.order {
		sec, err := r.subtree(n.kids[s])
		if err != nil {
			return nil, err
		}
		if secret == nil {
			secret = sec
		}
	}
	n.done, n.secret = true, secret
	return secret, nil
}

// compute resolves one reference whose dependencies may still be pending.
func (r *resolver) compute(x *ref) error {
	if x.bad != "" {
		return &IllFormedRefError{Ref: r.where(x), Reason: x.bad}
	}
	sp, msg := parseSpec(x.raw, r.paths)
	if msg != "" {
		return &IllFormedRefError{Ref: r.where(x), Reason: msg}
	}
	ns := sp.namespace
	if ns == "" {
		if len(x.path) >= 1 && x.path[0] == (seg{key: "metadata"}) && (len(x.path) == 1 || x.path[1] == (seg{key: "namespace"})) {
			return &IllFormedRefError{Ref: r.where(x), Reason: "a reference that sets the object's own namespace must set namespace"}
		}
		if _, err := r.deps(x.doc, metadataNamespace); err != nil {
			return err
		}
		ns, _ = object.Get(x.doc.work, "metadata", "namespace").(string)
	}
	ki, ambiguous := r.kinds.lookup(sp.kind, groupOf(sp.apiVersion), sp.apiVersion != "")
	if ambiguous != nil {
		return &IllFormedRefError{Ref: r.where(x), Reason: fmt.Sprintf("kind %q is ambiguous: %s; set apiVersion", sp.kind, strings.Join(ambiguous, ", "))}
	}
	if ki == nil {
		return r.notFound(x, sp, &KindNotFoundError{Ref: r.where(x), Kind: sp.kind, APIVersion: sp.apiVersion})
	}
	if !ki.namespaced {
		ns = ""
	}
	cands := r.find(ki, ns, sp)
	switch len(cands) {
	case 0:
		e := &ObjectNotFoundError{Ref: r.where(x), Kind: ki.String(), Namespace: ns, Name: sp.name, Labels: sp.labels}
		if ki.namespaced && ns == "" {
			e.Hint = "the kind is namespaced but neither the reference nor the referencing object has a namespace"
		}
		return r.notFound(x, sp, e)
	case 1:
	default:
		names := make([]string, len(cands))
		for i, c := range cands {
			names[i] = r.describe(c)
		}
		return &IllFormedRefError{Ref: r.where(x), Reason: fmt.Sprintf("%d objects match (%s); exactly one must", len(cands), strings.Join(names, ", "))}
	}
	t := cands[0]
	secret, err := r.deps(t, sp.path.prefix)
	if err != nil {
		return err
	}
	v, reason := sp.path.eval(t.work)
	if reason != "" {
		return r.notFound(x, sp, &ValueNotFoundError{Ref: r.where(x), Source: r.describe(t), Path: sp.path.text, Reason: reason})
	}
	if err := r.charge(x, v); err != nil {
		return err
	}
	v = copyValue(v)
	fromSecret := secret != nil || isSecret(t.gk)
	for i, tr := range sp.transformers {
		in := v
		if v, err = tr.fn(v); err != nil {
			if fromSecret { // the message must not quote the Secret's value
				err = hideValue(err, in)
			}
			return &TransformError{Ref: r.where(x), Index: i, Transformer: tr.name, Err: err}
		}
	}
	x.set(v)
	if r.opts.Edge != nil {
		r.opts.Edge(x.doc.orig, t.orig, pathString(x.path))
	}
	if isSecret(t.gk) {
		secret = t
	}
	x.secret = secret
	return nil
}

// notFound returns the default value of the reference when it has one,
// and err otherwise.
func (r *resolver) notFound(x *ref, sp *spec, err error) error {
	if !sp.hasDefault {
		return err
	}
	if err := r.charge(x, sp.def); err != nil {
		return err
	}
	x.set(copyValue(sp.def))
	return nil
}

// charge charges the render's budget for the copy of v that x takes; when
// the budget is spent, resolution stops with its error.
func (r *resolver) charge(x *ref, v any) error {
	if r.stop != nil {
		return errReported
	}
	if err := r.opts.Budget.ChargeValue(v, strings.TrimSuffix(r.where(x).prefix(), ": ")); err != nil {
		r.stop = err
		return errReported
	}
	return nil
}

// where describes the reference x for messages.
func (r *resolver) where(x *ref) Ref {
	return Ref{Object: r.describe(x.doc), Resource: resourceOf(x.doc.work), Field: pathString(x.path), Wanted: wanted(x.raw)}
}

// describe names an object for messages: `Service app/db`, `Namespace
// app`, with its origin when it comes from a Composable.
func (r *resolver) describe(d *doc) string {
	kind, _ := d.work["kind"].(string)
	if kind == "" {
		kind = "object"
	}
	name := "(no name)"
	switch n := object.Get(d.work, "metadata", "name").(type) {
	case string:
		if n != "" {
			name = n
		}
	case map[string]any:
		name = "(name from a reference)"
	}
	if ns, _ := object.Get(d.work, "metadata", "namespace").(string); ns != "" {
		name = ns + "/" + name
	}
	s := kind + " " + name
	if d.origin != "" {
		s += " (" + d.origin + ")"
	}
	return s
}
