package validate

import (
	"encoding/json"
	"strings"

	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// apply_gen.go holds the schema as tables of constants (which cost a
// process nothing until they are read), built into structured-merge-diff
// types on first use: the same schema written as Go values would add
// 6 MB of code to the binary.

// applyRef is a type reference: to a named type, or to an inline atom.
type applyRef struct {
	named string // the named type; "" for an inline atom
	atom  int    // the inline atom's index in applyAtoms
	rel   string // the element relationship the reference adds, if any
}

// applyAtom is a scalar, a list, a map (a struct's fields, or elements of
// one type), or several of them (an untyped value).
type applyAtom struct {
	scalar   string // "string", "numeric", "boolean", "untyped"; "" for none
	list     bool
	listElem int    // the list's elements: an index in applyRefs
	listRel  string // the list's element relationship
	keys     string // an associative list's keys, comma-separated
	mapped   bool
	mapElem  int    // the map's elements: an index in applyRefs, -1 for none
	mapRel   string // the map's element relationship
	fields   int    // the map's fields: applyFields[fields : fields+nfields]
	nfields  int
	unions   int // the map's unions: applyUnions[unions : unions+nunions]
	nunions  int
}

// applyField is a field of a map: its type (an index in applyRefs) and
// default value (JSON; "" for none).
type applyField struct {
	name string
	ref  int
	def  string
}

// applyUnion is a union of a map's fields: its discriminator ("" for
// none) and members ("field=value,...").
type applyUnion struct {
	discriminator string
	deduce        bool
	fields        string
}

// applyTypes builds the named types of the served kinds' schemas.
func applyTypes() []smdschema.TypeDef {
	refs := make([]smdschema.TypeRef, len(applyRefs))
	atoms := make([]smdschema.Atom, len(applyAtoms))
	for i, a := range applyAtoms {
		if a.scalar != "" {
			sc := smdschema.Scalar(a.scalar)
			atoms[i].Scalar = &sc
		}
		if a.list {
			atoms[i].List = &smdschema.List{ElementRelationship: smdschema.ElementRelationship(a.listRel)}
			if a.keys != "" {
				atoms[i].List.Keys = strings.Split(a.keys, ",")
			}
		}
		if a.mapped {
			atoms[i].Map = &smdschema.Map{ElementRelationship: smdschema.ElementRelationship(a.mapRel)}
		}
	}
	for i, r := range applyRefs {
		if r.named != "" {
			refs[i].NamedType = &applyRefs[i].named
		} else {
			refs[i].Inlined = atoms[r.atom]
		}
		if r.rel != "" {
			rel := smdschema.ElementRelationship(r.rel)
			refs[i].ElementRelationship = &rel
		}
	}
	// The elements and fields refer to references, which hold atoms by
	// value: fill the lists and maps (shared by pointer) last.
	for i, a := range applyAtoms {
		if a.list {
			atoms[i].List.ElementType = refs[a.listElem]
		}
		if a.mapped {
			fillMap(atoms[i].Map, a, refs)
		}
	}
	out := make([]smdschema.TypeDef, len(applyNamed))
	for i, n := range applyNamed {
		out[i] = smdschema.TypeDef{Name: n.name, Atom: atoms[n.atom]}
	}
	return out
}

// defaultValue is a field's default, written in JSON ("" for none).
func defaultValue(def string) any {
	switch def {
	case "":
		return nil
	case `""`:
		return ""
	case "{}":
		return map[string]any{}
	}
	var v any
	_ = json.Unmarshal([]byte(def), &v) // written by json.Marshal
	return v
}

// fillMap gives a map its element type, fields and unions.
func fillMap(m *smdschema.Map, a applyAtom, refs []smdschema.TypeRef) {
	if a.mapElem >= 0 {
		m.ElementType = refs[a.mapElem]
	}
	m.Fields = make([]smdschema.StructField, a.nfields)
	for i, f := range applyFields[a.fields : a.fields+a.nfields] {
		m.Fields[i] = smdschema.StructField{Name: f.name, Type: refs[f.ref], Default: defaultValue(f.def)}
	}
	for _, u := range applyUnions[a.unions : a.unions+a.nunions] {
		su := smdschema.Union{DeduceInvalidDiscriminator: u.deduce}
		if u.discriminator != "" {
			su.Discriminator = &u.discriminator
		}
		for _, f := range strings.Split(u.fields, ",") {
			name, value, _ := strings.Cut(f, "=")
			su.Fields = append(su.Fields, smdschema.UnionField{FieldName: name, DiscriminatorValue: value})
		}
		m.Unions = append(m.Unions, su)
	}
}
