package plan

import (
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Entry is one object of the desired state.
type Entry struct {
	Obj *object.Object
	// Inv is the invocation that applied the object last.
	Inv *Invocation
	// First is the invocation that applied the object first (its wave's).
	First *Invocation
	// Template is the bundle path of the template the object came from.
	Template string
	// Wave is the wave of the object's first application.
	Wave int
	// Hook is set when a later step deletes the object: it runs once.
	Hook bool
}

// State folds applies and deletes, in invocation order, into the desired
// state.
type State struct {
	entries []*Entry
	byKey   map[string]*Entry
}

// NewState returns an empty state.
func NewState() *State { return &State{byKey: map[string]*Entry{}} }

// Apply records that inv applies obj (identified by key). A second apply
// of the same object keeps its first wave and takes the newer content.
func (s *State) Apply(key string, obj *object.Object, inv *Invocation, template string) {
	if e, ok := s.byKey[key]; ok {
		e.Obj, e.Inv, e.Template, e.Hook = obj, inv, template, false
		return
	}
	e := &Entry{Obj: obj, Inv: inv, First: inv, Template: template, Wave: inv.Wave}
	s.entries = append(s.entries, e)
	s.byKey[key] = e
}

// Delete records that inv deletes the object with key. An object applied
// before becomes a run-once hook; one never applied stays absent.
func (s *State) Delete(key string) {
	if e, ok := s.byKey[key]; ok {
		e.Hook = true
	}
}

// Has reports whether the object with key is in the state.
func (s *State) Has(key string) bool {
	_, ok := s.byKey[key]
	return ok
}

// Entries returns the desired state in the order objects were first
// applied.
func (s *State) Entries() []*Entry { return s.entries }
