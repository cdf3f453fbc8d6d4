package schema

import (
	"errors"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/params"
)

// ResolveParams is the one parameter stage of a render, for every
// instance (dependencies included): the values are validated against the
// bundle's params.schema.json when it has one (its constraints go beyond
// params.yaml: minimum, pattern, ...), then resolved with params.yaml's
// rules and defaults (params.Resolve, KUDO's rules). Every problem of both
// is one params.Violation of one *params.Error, worded the same way:
//
//	invalid parameters:
//	  BROKERS: /BROKERS: maximum: got 12, want 9
//	  REPLICAS: "three" is not an integer
//
// Without a params.schema.json the schema derived from params.yaml would
// only repeat params.Resolve's checks, so it is not run.
func ResolveParams(b *bundle.Bundle, values map[string]any) (params.Values, error) {
	var viols []params.Violation
	if hasSchema(b) {
		err := ValidateParams(b, values)
		var ve *ValidationError
		switch {
		case errors.As(err, &ve):
			viols = append(viols, fromSchema(ve.Violations)...)
		case err != nil:
			return nil, err
		}
	}
	out, err := params.Resolve(b.Params, values)
	var pe *params.Error
	switch {
	case errors.As(err, &pe):
		viols = append(viols, withoutRepeats(pe.Violations, viols)...)
	case err != nil:
		return nil, err
	}
	if len(viols) > 0 {
		return nil, &params.Error{Violations: viols}
	}
	return out, nil
}

// hasSchema reports whether the bundle or a base has a params.schema.json.
func hasSchema(b *bundle.Bundle) bool {
	if len(b.ParamsSchema) > 0 {
		return true
	}
	for _, s := range b.BaseParamsSchemas {
		if len(s) > 0 {
			return true
		}
	}
	return false
}

// fromSchema words schema violations as parameter violations: the
// parameter is the first token of the pointer; a deeper pointer stays in
// the message.
func fromSchema(vs []Violation) []params.Violation {
	out := make([]params.Violation, 0, len(vs))
	for _, v := range vs {
		ptr := strings.TrimPrefix(v.Pointer, "/")
		name, rest, _ := strings.Cut(ptr, "/")
		msg := v.Message
		if rest != "" {
			msg = "/" + rest + ": " + msg
		}
		out = append(out, params.Violation{Param: unescapePtr(name), Msg: msg})
	}
	return out
}

// withoutRepeats drops violations of parameters the schema already
// reported: one problem of one value is said once.
func withoutRepeats(vs, already []params.Violation) []params.Violation {
	seen := map[string]bool{}
	for _, v := range already {
		seen[v.Param] = true
	}
	var out []params.Violation
	for _, v := range vs {
		if !seen[v.Param] {
			out = append(out, v)
		}
	}
	return out
}
