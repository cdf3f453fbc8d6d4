package schema

import (
	"errors"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/activity"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/params"
)

// ResolveParams is the one parameter stage of a render, for every
// instance (dependencies included): the values are validated against the
// bundle's params.schema.json when it has one (its constraints go beyond
// params.yaml: minimum, pattern, ...), then resolved with params.yaml's
// rules and defaults (params.Resolve, KUDO's rules), then the defaults
// that are used (those of the parameters the values do not give) are
// validated against params.schema.json too: a default the package's own
// schema refuses is refused, as a value would be. Every problem is one
// params.Violation of one *params.Error, worded the same way; a default
// is reported where params.yaml writes it:
//
//	invalid parameters:
//	  BROKERS: /BROKERS: maximum: got 12, want 9
//	  REPLICAS: "three" is not an integer
//	  params.yaml:14: ZONES.default: refused by params.schema.json: minItems: got 0, want 1
//
// Without a params.schema.json the schema derived from params.yaml would
// only repeat params.Resolve's checks, so it is not run.
func ResolveParams(b *bundle.Bundle, values map[string]any) (params.Values, error) {
	return ResolveParamsWithin(b, values, nil)
}

// ResolveParamsWithin is ResolveParams within the budget of a render: the
// steps of compiling params.schema.json and of validating against it are
// charged to budget (its schema-steps), and a validation that spends it
// stops with its error. A nil budget bounds each validation alone. The
// schema is compiled once per bundle, whatever the number of instances
// resolved (see paramsSchemas).
func ResolveParamsWithin(b *bundle.Bundle, values map[string]any, budget *limits.Budget) (params.Values, error) {
	var viols []params.Violation
	var ps *paramsSchema
	var c *compiled
	if hasSchema(b) {
		defer activity.Doing("validating the parameters of " + b.ID() + " against " + ParamsSchemaFile)()
		var err error
		if ps, err = paramsSchemas.Get(b, func(b *bundle.Bundle) (*paramsSchema, error) { return compileParams(b, budget) }); err != nil {
			return nil, err
		}
		ps.mu.Lock() // c counts its evaluations: one validation at a time
		defer ps.mu.Unlock()
		c = ps.c.within(budget)
		found, err := validateValues(b, ps.doc, c, values, false)
		var ve *ValidationError
		if errors.As(err, &ve) { // the validation was stopped: said as a violation
			found, c = ve.Violations, nil
		} else if err != nil {
			return nil, err
		}
		viols = append(viols, fromSchema(found)...)
	}
	out, err := params.Resolve(b.Params, values)
	var pe *params.Error
	switch {
	case errors.As(err, &pe):
		viols = append(viols, withoutRepeats(pe.Violations, viols)...)
	case err != nil:
		return nil, err
	}
	if c != nil {
		dv, err := defaultViolations(b, ps.doc, c, values)
		var ve *ValidationError
		if errors.As(err, &ve) {
			dv = fromSchema(ve.Violations)
		} else if err != nil {
			return nil, err
		}
		viols = append(viols, withoutRepeats(dv, viols)...)
	}
	if len(viols) > 0 {
		return nil, &params.Error{Violations: viols}
	}
	return out, nil
}

// paramsSchemas keeps the compiled parameter schema of each bundle
// rendered: the instances of a package (KRM Instance items, KudoOperator
// dependencies) validate against one compilation.
var paramsSchemas bundle.Memo[*paramsSchema]

// paramsSchema is a bundle's effective parameter schema, compiled.
type paramsSchema struct {
	mu  sync.Mutex // held while validating against c
	doc map[string]any
	c   *compiled
}

func compileParams(b *bundle.Bundle, budget *limits.Budget) (*paramsSchema, error) {
	doc, c, err := effectiveParams(b, budget)
	if err != nil {
		return nil, err
	}
	return &paramsSchema{doc: doc, c: c}, nil
}

// DefaultViolations validates the default of every parameter of b that
// has one against the bundle's params.schema.json (combined with its
// bases'), as a render that gives no value uses them, and returns the
// defaults the schema refuses, one params.Violation each (Default set,
// the message starting with "default refused by params.schema.json: ").
// A bundle without a params.schema.json has none. A schema that cannot be
// used is an error (a [*SchemaError]), as in a render.
//
// A parameter the schema does not let a user set (not a property under
// additionalProperties: false, or a false subschema) may still have a
// default: that is not a violation. Neither is a `null` (or empty) text
// default of an array or map parameter: KUDO's "no value".
func DefaultViolations(b *bundle.Bundle) ([]params.Violation, error) {
	if !hasSchema(b) {
		return nil, nil
	}
	doc, c, err := effectiveParams(b, nil)
	if err != nil {
		return nil, err
	}
	return defaultViolations(b, doc, c, nil)
}

// defaultViolations validates the defaults that values leave in use,
// together with values (a schema may relate parameters), and keeps the
// violations of those defaults.
func defaultViolations(b *bundle.Bundle, doc map[string]any, c *compiled, values map[string]any) ([]params.Violation, error) {
	merged := make(map[string]any, len(b.Params)+len(values))
	fromDefault := map[string]bool{}
	for k, v := range values {
		if v != nil {
			merged[k] = v
		}
	}
	for _, p := range b.Params {
		if p == nil || !p.HasDefault() || merged[p.Name] != nil || noValueText(p) {
			continue
		}
		merged[p.Name] = p.Default
		fromDefault[p.Name] = true
	}
	if len(fromDefault) == 0 {
		return nil, nil
	}
	found, err := validateValues(b, doc, c, merged, true)
	if err != nil {
		return nil, err
	}
	var out []params.Violation
	defs := paramsByName(b)
	for _, v := range fromSchema(found) {
		if fromDefault[v.Param] {
			v.Msg, v.Default = "default refused by params.schema.json: "+v.Msg, true
			if p := defs[v.Param]; p != nil {
				v.At = p.DefaultPos
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// noValueText reports whether the default of p is the text KUDO stores for
// an array or map without a value ("null", "~" or empty).
func noValueText(p *bundle.Param) bool {
	if p.Type != bundle.TypeArray && p.Type != bundle.TypeMap {
		return false
	}
	s, ok := p.Default.(string)
	if !ok {
		return false
	}
	switch strings.TrimSpace(s) {
	case "", "null", "~", "Null", "NULL":
		return true
	}
	return false
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
