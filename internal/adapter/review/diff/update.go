package diff

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/adapter/argocd"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Update is what the API server does with the update of a changed
// object, when it refuses it (Options.Update).
type Update struct {
	// Refused are the fields the API server refuses to change in place,
	// with its messages.
	Refused []Refusal
	// Recreated says how the target deletes and creates the object
	// instead (Options.Recreates); "" when nothing does: the update fails.
	Recreated string
	// Advice says what to do when the update fails (validate.Advice).
	Advice string
}

// Refusal is one field the API server refuses to change, with its
// message.
type Refusal struct {
	Field, Msg string
}

// Fails reports whether the update fails: refused, and recreated by
// nothing.
func (u *Update) Fails() bool { return u != nil && len(u.Refused) > 0 && u.Recreated == "" }

// String is the refusal in one line: "field: message; field: message".
func (u *Update) String() string {
	s := ""
	for i, r := range u.Refused {
		if i > 0 {
			s += "; "
		}
		s += r.Field + ": " + r.Msg
	}
	return s
}

// checkUpdate validates the update of an object from a to b (nil when
// Options.Update is unset or the server accepts it). An object Argo CD
// runs as a hook is created anew, never updated.
func checkUpdate(a, b *engine.Item, opts Options, sec *secrets) *Update {
	if opts.Update == nil || argocd.Hooked(a.Obj) || argocd.Hooked(b.Obj) {
		return nil
	}
	problems := opts.Update(a.Obj, b.Obj)
	if len(problems) == 0 {
		return nil
	}
	u := &Update{}
	for _, p := range problems {
		u.Refused = append(u.Refused, Refusal{Field: sec.text(p.Field), Msg: sec.mask(p.Msg)})
	}
	if opts.Recreates != nil {
		u.Recreated = opts.Recreates(b.Obj)
	}
	if u.Recreated == "" {
		u.Advice = sec.mask(validate.Advice(b.Obj, problems))
	}
	return u
}

// mask hides the secret values in a message.
func (s *secrets) mask(msg string) string {
	if s.show {
		return msg
	}
	return s.set.Mask(msg)
}

// Lines are the update's refusal in words, for the text report and the
// markdown comment.
func (u *Update) Lines() []string {
	if u.Recreated != "" {
		return []string{fmt.Sprintf("recreated: the API server refuses to update it in place (%s); %s", u.String(), u.Recreated)}
	}
	return []string{"the API server will refuse this update: " + u.String(), "to apply it: " + u.Advice}
}

// UpdateFunc validates an update as the API server does
// (validate.Validator.Update).
type UpdateFunc func(old, new *object.Object) []*diag.Diagnostic
