package diff

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Key identifies an object across two renders: API group (not version),
// kind, namespace and name.
type Key struct {
	Group, Kind, Namespace, Name string
}

// KeyOf is the key of an object.
func KeyOf(o *object.Object) Key {
	return Key{Group: o.Group(), Kind: o.Kind(), Namespace: o.Namespace(), Name: o.Name()}
}

// String is the key as kubectl writes a resource: Kind.group ns/name.
func (k Key) String() string {
	kind := k.Kind
	if k.Group != "" {
		kind += "." + k.Group
	}
	if k.Namespace == "" {
		return kind + " " + k.Name
	}
	return kind + " " + k.Namespace + "/" + k.Name
}

// Status is what happened to an object.
type Status string

// The statuses of an object.
const (
	Added   Status = "added"
	Removed Status = "removed"
	Changed Status = "changed"
	// Suppressed is an object that changed only in ignored fields.
	Suppressed Status = "suppressed"
)

// Move is a change of where an object is applied: its wave, whether it is
// a hook (runs once), or the step that applies it first.
type Move struct {
	What     string
	From, To string
}

// Field is one changed field as the report shows it: masked when it holds
// a secret.
type Field struct {
	Path Path
	Op   Op
	// From and To are the values as YAML; Hidden when masked.
	From, To string
	// Lines are, for strings of several lines, the changed lines with a
	// little context; From and To are then empty.
	Lines []Line
	// Masked is set when the values are secret.
	Masked bool
}

// Object is one object that was added, removed or changed.
type Object struct {
	Key        Key
	APIVersion string
	Status     Status
	Moves      []Move
	Fields     []Field
	// HiddenFields counts the changed fields not shown (bookkeeping,
	// --ignore).
	HiddenFields int
	// Body is an added or removed object as YAML, bookkeeping hidden and
	// secrets masked as for fields.
	Body string
	// Wave and Hook are where the object is applied (the new render's,
	// for a removed object the old one's).
	Wave int
	Hook bool
	// Update is set for a changed object whose update the API server
	// refuses (Options.Update).
	Update *Update
}

// Report is the result of a comparison.
type Report struct {
	Objects []Object
	// Warnings are the warnings the objects of either render carry, each
	// once.
	Warnings []Warning
}

// Counts are the numbers of objects added, changed, removed and
// suppressed, and of changes whose update will fail.
type Counts struct {
	Added      int `json:"added"`
	Changed    int `json:"changed"`
	Removed    int `json:"removed"`
	Suppressed int `json:"suppressed"`
	// Refused counts the changed objects whose update the API server
	// refuses and that nothing recreates (Update.Fails).
	Refused int `json:"refused,omitempty"`
}

// Counts counts the objects by status.
func (r *Report) Counts() Counts {
	var c Counts
	for _, o := range r.Objects {
		switch o.Status {
		case Added:
			c.Added++
		case Removed:
			c.Removed++
		case Changed:
			c.Changed++
		case Suppressed:
			c.Suppressed++
		}
		if o.Update.Fails() {
			c.Refused++
		}
	}
	return c
}

// HasChanges reports whether anything shown changed (suppressed objects do
// not count).
func (r *Report) HasChanges() bool {
	c := r.Counts()
	return c.Added+c.Changed+c.Removed > 0
}

// Summary is the one-line summary: "3 to add, 2 to change, 1 to remove".
func (c Counts) Summary() string {
	s := fmt.Sprintf("%d to add, %d to change, %d to remove", c.Added, c.Changed, c.Removed)
	if c.Suppressed > 0 {
		s += fmt.Sprintf(" (%d changed only in ignored fields)", c.Suppressed)
	}
	if c.Refused > 0 {
		s += fmt.Sprintf("; the API server will refuse %s", plural(c.Refused, "update"))
	}
	return s
}

// Options of a comparison.
type Options struct {
	// ShowBookkeeping shows kudo-render's own annotations.
	ShowBookkeeping bool
	// ShowSecrets turns masking off.
	ShowSecrets bool
	// Ignore hides more fields.
	Ignore []Rule
	// Differ compares two versions of an object; nil: Dyff.
	Differ Differ
	// Context is the number of unchanged lines shown around changed
	// lines of long strings; 0: 2.
	Context int
	// SecretValues are values references copied out of Secrets into
	// other objects (engine.Options.SecretCopy), strings, numbers or maps
	// and lists of them: masked wherever they appear, in every form
	// (package internal/redact), unless ShowSecrets.
	SecretValues []any
	// Update, when set, validates the update of each changed object as
	// the API server does (validate.Validator.Update): an update it
	// refuses is reported (Object.Update).
	Update UpdateFunc
	// Recreates says how the target deletes and creates an object whose
	// update is refused (argocd.Recreates, flux.Recreates); nil or "":
	// nothing does, and the update fails.
	Recreates func(*object.Object) string
}

// Compare compares two renders. Objects come in the order of the new
// render, then the removed ones in the order of the old.
func Compare(from, to []engine.Item, opts Options) (*Report, error) {
	if opts.Differ == nil {
		opts.Differ = Dyff{}
	}
	if opts.Context == 0 {
		opts.Context = 2
	}
	sec := newSecrets(from, to, opts)
	old := map[Key]*engine.Item{}
	for i := range from {
		old[KeyOf(from[i].Obj)] = &from[i]
	}
	seen := map[Key]bool{}
	rep := &Report{}
	for i := range to {
		k := KeyOf(to[i].Obj)
		seen[k] = true
		o, err := compareOne(k, old[k], &to[i], opts, sec)
		if err != nil {
			return nil, err
		}
		if o != nil {
			rep.Objects = append(rep.Objects, *o)
		}
	}
	for i := range from {
		if k := KeyOf(from[i].Obj); !seen[k] {
			o := body(k, Removed, &from[i], opts, sec)
			rep.Objects = append(rep.Objects, o)
		}
	}
	rep.Warnings = warnings(from, to)
	return rep, nil
}

// compareOne compares one object of the new render with its old version
// (nil when it is new); nil when nothing changed.
func compareOne(k Key, a, b *engine.Item, opts Options, sec *secrets) (*Object, error) {
	if a == nil {
		o := body(k, Added, b, opts, sec)
		return &o, nil
	}
	moves := moves(a, b)
	if len(moves) == 0 && reflect.DeepEqual(a.Obj.Map, b.Obj.Map) {
		return nil, nil
	}
	changes, err := opts.Differ.Changes(a.Obj, b.Obj)
	if err != nil {
		return nil, err
	}
	o := &Object{Key: sec.key(k), APIVersion: b.Obj.APIVersion(), Status: Changed, Moves: moves, Wave: b.Wave, Hook: hook(b), Update: checkUpdate(a, b, opts, sec)}
	holder := sync.OnceValue(func() bool { return sec.holds(k, a.Obj) || sec.holds(k, b.Obj) })
	ignored := 0
	for _, c := range changes {
		switch hidden(k.Kind, c, a, b, opts) {
		case byIgnore:
			ignored++
			fallthrough
		case byBookkeeping:
			o.HiddenFields++
		default:
			o.Fields = append(o.Fields, sec.field(k, holder, c, opts))
		}
	}
	if len(o.Fields) == 0 && len(o.Moves) == 0 && o.Update == nil {
		if ignored == 0 {
			return nil, nil // bookkeeping only: nothing a reviewer needs
		}
		o.Status = Suppressed
	}
	return o, nil
}

// hook reports whether an item runs once: kudo-render made it a hook, or
// an annotation (a template's argocd.argoproj.io/hook or helm.sh/hook)
// makes Argo CD run it as one.
func hook(it *engine.Item) bool { return it.Hook || argocd.Hooked(it.Obj) }

// moves are the changes of where an object is applied.
func moves(a, b *engine.Item) []Move {
	var out []Move
	if a.Wave != b.Wave {
		out = append(out, Move{What: "wave", From: strconv.Itoa(a.Wave), To: strconv.Itoa(b.Wave)})
	}
	if ha, hb := hook(a), hook(b); ha != hb {
		out = append(out, Move{What: "hook", From: strconv.FormatBool(ha), To: strconv.FormatBool(hb)})
	}
	if sa, sb := step(a.First), step(b.First); sa != sb {
		out = append(out, Move{What: "step", From: sa, To: sb})
	}
	return out
}

func step(s engine.StepRef) string {
	if s.Plan == "" {
		return "common"
	}
	return strings.Join([]string{s.Instance, s.Plan, s.Phase, s.Step}, "/")
}

// body describes an added or removed object whole.
func body(k Key, st Status, it *engine.Item, opts Options, sec *secrets) Object {
	o := Object{Key: sec.key(k), APIVersion: it.Obj.APIVersion(), Status: st, Wave: it.Wave, Hook: hook(it)}
	shown := it.Obj.DeepCopy()
	if !opts.ShowBookkeeping {
		dropBookkeeping(shown, it)
	}
	if !opts.ShowSecrets {
		sec.maskObject(k, shown)
	}
	data, err := shown.Marshal()
	if err != nil {
		data = []byte(fmt.Sprintf("# cannot show the object: %s\n", sec.set.Mask(err.Error())))
	}
	o.Body = string(data)
	return o
}
