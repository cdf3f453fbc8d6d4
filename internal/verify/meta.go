package verify

import (
	"cmp"
	"errors"
	"strings"
	"unicode"

	"github.com/Masterminds/semver/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/params"
	"github.com/kudo-render/kudo-render/internal/schema"
)

// paramPos is where a parameter is defined.
func paramPos(p *bundle.Param) (string, int) {
	if p.Pos.File == "" {
		return paramsFile, p.Pos.Line
	}
	return p.Pos.File, p.Pos.Line
}

// names checks parameter names: KUDO's DuplicateVerifier and
// InvalidCharVerifier, plus a warning for names templates cannot write as
// a field.
func (v *verifier) names() {
	first := map[string]string{} // lower-cased name -> first spelling
	for _, p := range v.b.Params {
		file, line := paramPos(p)
		lower := strings.ToLower(p.Name)
		if f, dup := first[lower]; dup {
			if f == p.Name {
				v.errorf(file, line, "parameter %q has a duplicate", p.Name)
			} else {
				v.errorf(file, line, "parameter %q has a duplicate: %q (names are compared without case)", p.Name, f)
			}
		} else {
			first[lower] = p.Name
		}
		invalid := false
		for _, r := range ";," {
			if strings.ContainsRune(p.Name, r) {
				v.errorf(file, line, "parameter %q contains invalid character %q", p.Name, r)
				invalid = true
			}
		}
		if !invalid && p.Name != "" && !isIdentifier(p.Name) {
			v.warnf(file, line, "parameter %q is not a template identifier (letters, digits and _, not starting with a digit): "+
				"templates cannot write .Params.%s; use index .Params %q", p.Name, p.Name, p.Name)
		}
	}
}

// isIdentifier reports whether s can follow a dot in a Go template field:
// text/template's lexer takes letters, digits and underscores, and a dot
// followed by a digit starts a number.
func isIdentifier(s string) bool {
	for i, r := range s {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case unicode.IsDigit(r) && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// versions is KUDO's VersionVerifier. A KEP-0009 framework's version is
// free-form.
func (v *verifier) versions() {
	b := v.b
	if b.Format == bundle.FormatFramework {
		if strings.TrimSpace(b.Version) == "" {
			v.errorf(b.File, 0, `"version" is required`)
		}
	} else {
		v.semver("operatorVersion", b.Version, true, false)
	}
	v.semver("appVersion", b.AppVersion, false, false)
	// A framework may follow Helm and give a range such as ">= 1.16".
	ranges := b.Format == bundle.FormatFramework
	v.semver("kudoVersion", b.KudoVersion, false, ranges)
	v.semver("kubernetesVersion", b.KubernetesVersion, false, ranges)
}

func (v *verifier) semver(field, value string, required, ranges bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		if required {
			v.errorf(v.b.File, 0, "%q is required and must be semver", field)
		}
		return
	}
	_, err := semver.NewVersion(value)
	if err == nil {
		return
	}
	if ranges {
		if _, cerr := semver.NewConstraint(value); cerr == nil {
			return
		}
	}
	v.errorf(v.b.File, 0, "unable to parse %q: %q: %v", field, value, err)
}

// paramDefs checks parameter definitions: KUDO's immutable, enum, default
// and group checks.
func (v *verifier) paramDefs() {
	b := v.b
	groups := map[string]bool{}
	for _, g := range b.Groups {
		if groups[g.Name] {
			v.errorf(paramsFile, 0, "parameter group %q is duplicated", g.Name)
		}
		groups[g.Name] = true
		if strings.Contains(g.Name, "/") {
			v.errorf(paramsFile, 0, "parameter group %q contains invalid character '/'", g.Name)
		}
	}
	schemaDefaults := v.schemaDefaults()
	for _, p := range b.Params {
		file, line := paramPos(p)
		if p.Immutable && !p.HasDefault() && !p.Required {
			v.errorf(file, line, "parameter %q is immutable but is not marked as required or has a default value", p.Name)
		}
		if p.Enum != nil && len(p.Enum) == 0 {
			v.errorf(file, line, "parameter %q is an enum but has no allowed values", p.Name)
		}
		for _, e := range p.Enum {
			if e == nil {
				v.errorf(file, line, "parameter %q has an invalid enum value: null", p.Name)
				continue
			}
			for _, msg := range valueProblems(p, e) {
				v.errorf(file, line, "parameter %q has an invalid enum value: %s", p.Name, msg)
			}
		}
		probs := defaultProblems(p)
		if len(probs) == 0 {
			probs = schemaDefaults[p.Name] // said once: params.yaml's words first
		}
		for _, msg := range probs {
			v.errorf(file, line, "parameter %q has an invalid default value: %s", p.Name, msg)
		}
		if p.Group != "" {
			if strings.Contains(p.Group, "/") {
				v.errorf(file, line, "parameter %q has a group with invalid character '/'", p.Name)
			}
			if len(b.Groups) > 0 && !groups[p.Group] {
				v.errorf(file, line, "parameter %q has a group %q that is not defined in the group section", p.Name, p.Group)
			}
		}
	}
}

// schemaDefaults checks every default against the package's
// params.schema.json, as a render that uses the default does
// (schema.ResolveParams), and returns the problems by parameter. A schema
// the render cannot use is an error at params.schema.json. A bundle whose
// extends is not resolved is left alone: its bases' schemas apply too.
func (v *verifier) schemaDefaults() map[string][]string {
	if v.partial {
		return nil
	}
	viols, err := schema.DefaultViolations(v.b)
	var se *schema.SchemaError
	switch {
	case errors.As(err, &se):
		for _, d := range se.Problems {
			v.errorf(cmp.Or(d.File, schema.ParamsSchemaFile), d.Line, "invalid schema: %s", fieldMsg(d))
		}
		return nil
	case err != nil:
		v.errorf(schema.ParamsSchemaFile, 0, "checking the parameter defaults: %v", err)
		return nil
	}
	out := map[string][]string{}
	for _, vi := range viols {
		out[vi.Param] = append(out[vi.Param], strings.TrimPrefix(vi.Msg, "default "))
	}
	return out
}

// valueProblems checks x against the declared type of p only.
func valueProblems(p *bundle.Param, x any) []string {
	def := &bundle.Param{Name: p.Name, Type: p.Type}
	return violations(params.Resolve([]*bundle.Param{def}, map[string]any{p.Name: x}))
}

// defaultProblems checks the default of p against its type and enum.
func defaultProblems(p *bundle.Param) []string {
	if !p.HasDefault() {
		return nil
	}
	_, err := params.Resolve([]*bundle.Param{p}, nil)
	var out []string
	if pe := (*params.Error)(nil); errors.As(err, &pe) {
		for _, vi := range pe.Violations {
			if vi.Default {
				out = append(out, strings.TrimPrefix(vi.Msg, "default "))
			}
		}
	}
	return out
}

func violations(_ params.Values, err error) []string {
	if err == nil {
		return nil
	}
	var pe *params.Error
	if !errors.As(err, &pe) {
		return []string{err.Error()}
	}
	var out []string
	for _, vi := range pe.Violations {
		out = append(out, vi.Msg)
	}
	return out
}
