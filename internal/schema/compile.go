package schema

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// schemaURLPrefix makes the base URL of every schema kudo-render compiles.
// It is no file and no network location: a relative reference resolves
// below it and is refused like any other document.
const schemaURLPrefix = "kudorender:///"

// vocabURL names kudo-render's vocabulary. It is registered with every
// compiler so that kudo-render sees each schema object the library
// compiles (see compileSchema); it defines no assertion of its own.
const vocabURL = "https://kudorender.dev/schema/vocab/kudo-render"

var printer = message.NewPrinter(language.English)

// errRefused is the reason every load is refused.
var errRefused = errors.New("kudo-render never loads schemas from files or URLs")

// refusingLoader is the only URL loader kudo-render installs: it refuses
// everything. The standard meta-schemas are embedded in the library and
// never reach it; references inside the schema never need it.
type refusingLoader struct{}

func (refusingLoader) Load(string) (any, error) { return nil, errRefused }

// vocabMeta is the meta-schema of kudo-render's vocabulary. Registering a
// vocabulary makes the library check schemas against the 2020-12
// vocabularies core, applicator, unevaluated and validation plus the
// registered ones only, so this one brings back the meta-data,
// format-annotation and content vocabularies (a "title" that is not a
// string stays an error).
var vocabMeta = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc := map[string]any{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"allOf": []any{
			map[string]any{"$ref": "https://json-schema.org/draft/2020-12/meta/meta-data"},
			map[string]any{"$ref": "https://json-schema.org/draft/2020-12/meta/format-annotation"},
			map[string]any{"$ref": "https://json-schema.org/draft/2020-12/meta/content"},
		},
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refusingLoader{})
	const u = schemaURLPrefix + "vocabulary-meta.json"
	if err := c.AddResource(u, doc); err != nil {
		return nil, err
	}
	return c.Compile(u)
})

// schemaProblem is a problem with a schema at a JSON pointer inside it.
type schemaProblem struct {
	ptr string
	msg string
}

// compiled is a schema compiled for one goroutine: validation counts
// subschema evaluations in it.
type compiled struct {
	url     string
	name    string
	root    *jsonschema.Schema
	schemas []*jsonschema.Schema // every object schema compiled
	evals   int
	budget  int
	// steps is the render's budget of validation steps, if any; pending
	// are steps taken but not charged yet (see step).
	steps   *limits.Budget
	pending int64
}

// budgetExceeded is the panic value that stops a validation over budget.
type budgetExceeded struct{}

// stepsSpent is the panic value that stops a validation when the
// render's budget of steps is spent.
type stepsSpent struct{ err error }

// stepsAtOnce is how many steps a validation takes from the render's
// budget at a time.
const stepsAtOnce = 64 << 10

// within makes validations of c charge their steps to b (nil: none).
func (c *compiled) within(b *limits.Budget) *compiled {
	c.steps = b
	return c
}

// step counts the evaluation of subschema s against v in the render's
// budget, before the library does the work that grows with v: it reads a
// string whole for any subschema (it copies it, counts its runes, matches
// its pattern), every key of an object against every pattern of
// patternProperties, every item of an array for uniqueItems.
func (c *compiled) step(s *jsonschema.Schema, v any) {
	n := int64(1)
	switch t := v.(type) {
	case string:
		n += int64(len(t))
	case map[string]any:
		if k := len(s.PatternProperties); k > 0 {
			for key := range t {
				n += int64(k * (1 + len(key)))
			}
		}
	case []any:
		if s.UniqueItems {
			n += int64(len(t))
		}
	}
	c.pending += n
	if c.pending >= stepsAtOnce {
		c.flush()
	}
}

// flush charges the pending steps to the render's budget.
func (c *compiled) flush() {
	if c.steps == nil {
		c.pending = 0
		return
	}
	err := c.steps.Charge(limits.SchemaSteps, c.pending, c.name)
	c.pending = 0
	if err != nil {
		panic(stepsSpent{err})
	}
}

// compileSchema compiles doc, a decoded schema, named name in messages.
// allowUnique allows kudo-render's `unique` keyword at the top level.
//
// Every load is refused, unknown formats are errors, and the compiled
// graph is checked for reference cycles that do not descend into the value
// and for excessive fan-out. Each schema object then gets a format
// validator that counts evaluations (format is the first keyword the
// library evaluates after type, const and enum, before any applicator),
// so that validate can stop a validation that exceeds its budget.
func compileSchema(name string, doc any, allowUnique bool) (c *compiled, probs []schemaProblem) {
	defer func() {
		if r := recover(); r != nil {
			c, probs = nil, []schemaProblem{{"", fmt.Sprintf("the JSON Schema library failed on this schema: %v", r)}}
		}
	}()
	meta, err := vocabMeta()
	if err != nil {
		return nil, []schemaProblem{{"", fmt.Sprintf("internal error: kudo-render's vocabulary: %v", err)}}
	}
	c = &compiled{url: schemaURLPrefix + name, name: name}
	comp := jsonschema.NewCompiler()
	comp.DefaultDraft(jsonschema.Draft2020)
	comp.AssertFormat()
	comp.AssertContent()
	comp.UseLoader(refusingLoader{})
	comp.AssertVocabs()
	comp.RegisterVocabulary(&jsonschema.Vocabulary{
		URL:    vocabURL,
		Schema: meta,
		Compile: func(ctx *jsonschema.CompilerContext, obj map[string]any) (jsonschema.SchemaExt, error) {
			s := ctx.Enqueue(nil) // the schema being compiled
			c.schemas = append(c.schemas, s)
			ptr, ours := c.pointer(s.Location)
			if _, has := obj["unique"]; has && ours {
				switch {
				case ptr != "":
					probs = append(probs, schemaProblem{ptr + "/unique", "the unique keyword is only allowed at the top level of a resource definition's schema"})
				case !allowUnique:
					probs = append(probs, schemaProblem{"/unique", "the unique keyword is only allowed in resource definitions"})
				}
			}
			if f, ok := obj["format"].(string); ok && s.Format == nil && ours {
				probs = append(probs, schemaProblem{ptr + "/format", fmt.Sprintf("unknown format %q", f)})
			}
			return nil, nil
		},
	})
	if err := comp.AddResource(c.url, doc); err != nil {
		return nil, []schemaProblem{{"", err.Error()}}
	}
	root, err := comp.Compile(c.url)
	if err != nil {
		return nil, c.compileProblems(err, doc)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	c.root = root
	if p := c.checkGraph(); len(p) > 0 {
		return nil, p
	}
	c.instrument()
	return c, nil
}

// pointer returns the JSON pointer of a schema location inside this
// schema; false for locations elsewhere (a meta-schema).
func (c *compiled) pointer(loc string) (string, bool) {
	frag, ok := strings.CutPrefix(loc, c.url+"#")
	if !ok {
		return "", false
	}
	if p, err := url.PathUnescape(frag); err == nil {
		frag = p
	}
	return frag, true
}

// where shows a schema location: "#/$defs/a" inside this schema, the URL
// otherwise.
func (c *compiled) where(s *jsonschema.Schema) string {
	if p, ok := c.pointer(s.Location); ok {
		return "#" + p
	}
	return s.Location
}

// compileProblems turns a compilation error into problems.
func (c *compiled) compileProblems(err error, doc any) []schemaProblem {
	var le *jsonschema.LoadURLError
	if errors.As(err, &le) {
		ptr, ref := findRef(doc, le.URL, c.url)
		if ref == "" {
			ref = le.URL
		}
		return []schemaProblem{{ptr, fmt.Sprintf("refers to %q, which is refused: a schema may only refer to itself (\"#...\") and to the standard JSON Schema meta-schemas; %v", ref, errRefused)}}
	}
	var sve *jsonschema.SchemaValidationError
	if errors.As(err, &sve) {
		base, _ := c.pointer(sve.URL)
		var verr *jsonschema.ValidationError
		if errors.As(sve.Err, &verr) {
			var out []schemaProblem
			for _, v := range flatten(verr) {
				out = append(out, schemaProblem{base + v.Pointer, "is not a valid schema: " + v.Message})
			}
			return out
		}
		return []schemaProblem{{base, "is not a valid schema: " + sve.Err.Error()}}
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, `"`+c.url+`#`, `"#`)
	msg = strings.ReplaceAll(msg, c.url, "#")
	msg = strings.TrimPrefix(msg, "jsonschema: ")
	return []schemaProblem{{"", msg}}
}

// findRef finds the $ref (or $dynamicRef, $recursiveRef, $schema) whose
// target is target, for the message of a refused load: its JSON pointer
// and its text as written. It searches every object of doc, so it may name
// a data field that looks like a reference when the real one is not
// found; it is only used to point at the refused reference.
func findRef(doc any, target, base string) (ptr, ref string) {
	baseURL, _ := url.Parse(base)
	matches := func(s string) bool {
		s, _, _ = strings.Cut(s, "#")
		if s == "" {
			return false
		}
		if s == target || strings.TrimSuffix(s, "/") == strings.TrimSuffix(target, "/") {
			return true
		}
		if u, err := url.Parse(s); err == nil && baseURL != nil {
			if r := baseURL.ResolveReference(u).String(); r == target {
				return true
			}
		}
		return strings.HasSuffix(target, "/"+strings.TrimPrefix(s, "/"))
	}
	type item struct {
		v   any
		ptr string
	}
	stack := []item{{doc, ""}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := it.v.(type) {
		case map[string]any:
			for _, kw := range []string{"$ref", "$dynamicRef", "$recursiveRef", "$schema", "$id"} {
				if s, ok := t[kw].(string); ok && matches(s) {
					return it.ptr + "/" + kw, s
				}
			}
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for i := len(keys) - 1; i >= 0; i-- {
				stack = append(stack, item{t[keys[i]], it.ptr + "/" + escapePtr(keys[i])})
			}
		case []any:
			for i := len(t) - 1; i >= 0; i-- {
				stack = append(stack, item{t[i], it.ptr + "/" + strconv.Itoa(i)})
			}
		}
	}
	return "", ""
}

// sameInstance lists the subschemas that s applies to the value s itself
// is applied to (as opposed to its properties or items).
func sameInstance(s *jsonschema.Schema) []*jsonschema.Schema {
	var out []*jsonschema.Schema
	add := func(x *jsonschema.Schema) {
		if x != nil {
			out = append(out, x)
		}
	}
	add(s.Ref)
	add(s.RecursiveRef)
	if s.DynamicRef != nil {
		add(s.DynamicRef.Ref)
	}
	for _, x := range s.AllOf {
		add(x)
	}
	for _, x := range s.AnyOf {
		add(x)
	}
	for _, x := range s.OneOf {
		add(x)
	}
	add(s.Not)
	add(s.If)
	add(s.Then)
	add(s.Else)
	for _, k := range slices.Sorted(maps.Keys(s.DependentSchemas)) {
		add(s.DependentSchemas[k])
	}
	for _, k := range slices.Sorted(maps.Keys(s.Dependencies)) {
		if x, ok := s.Dependencies[k].(*jsonschema.Schema); ok {
			add(x)
		}
	}
	return out
}

// checkGraph refuses reference cycles that never descend into the value
// (the library would report them on every validation that reaches them)
// and schemas in which one value is checked against more than
// MaxSubschemasPerValue subschemas.
func (c *compiled) checkGraph() []schemaProblem {
	const (
		white = iota
		grey
		black
	)
	color := map[*jsonschema.Schema]int{}
	count := map[*jsonschema.Schema]int{}
	var path []*jsonschema.Schema
	var probs []schemaProblem
	var visit func(s *jsonschema.Schema) int
	visit = func(s *jsonschema.Schema) int {
		switch color[s] {
		case black:
			return count[s]
		case grey:
			i := slices.Index(path, s)
			var names []string
			for _, x := range path[i:] {
				names = append(names, c.where(x))
			}
			names = append(names, c.where(s))
			ptr, _ := c.pointer(s.Location)
			probs = append(probs, schemaProblem{ptr, "reference cycle that never descends into the value: " + strings.Join(names, " -> ")})
			return MaxSubschemasPerValue + 1
		}
		color[s] = grey
		path = append(path, s)
		n := 1
		for _, x := range sameInstance(s) {
			n += visit(x)
			if n > MaxSubschemasPerValue {
				n = MaxSubschemasPerValue + 1
			}
		}
		path = path[:len(path)-1]
		color[s] = black
		count[s] = n
		return n
	}
	all := append([]*jsonschema.Schema{c.root}, c.schemas...)
	for _, s := range all {
		if len(probs) > 0 {
			break
		}
		if n := visit(s); n > MaxSubschemasPerValue && len(probs) == 0 {
			ptr, _ := c.pointer(s.Location)
			probs = append(probs, schemaProblem{ptr, fmt.Sprintf(
				"one value would be checked against more than %d subschemas (allOf, anyOf, oneOf and references nested into each other): the schema is too complex", MaxSubschemasPerValue)})
		}
	}
	return probs
}

// instrument gives every object schema a format validator that counts
// evaluations and delegates to the format it had, if any.
func (c *compiled) instrument() {
	for _, s := range c.schemas {
		orig := s.Format
		f := &jsonschema.Format{Validate: func(v any) error {
			c.evals++
			if c.evals > c.budget {
				panic(budgetExceeded{})
			}
			c.step(s, v)
			if orig != nil {
				return orig.Validate(v)
			}
			return nil
		}}
		if orig != nil {
			f.Name = orig.Name
		}
		s.Format = f
	}
}

// validate validates v, a value of the JSON model with nodes objects,
// arrays and scalars, and returns its violations.
//
// With a render's budget (within), the steps of the validation are charged
// to it as they are taken; when it is spent, validation stops with its
// error (a *diag.LimitError).
func (c *compiled) validate(v any, nodes int) (viols []Violation, err error) {
	c.evals, c.pending = 0, 0
	c.budget = BaseEvaluations + EvaluationsPerNode*nodes
	defer func() {
		if r := recover(); r != nil {
			viols = nil
			switch r := r.(type) {
			case budgetExceeded:
				err = fmt.Errorf("validation stopped after %d subschema evaluations: the schema is too complex for this value (references that multiply at every level?)", c.budget)
			case stepsSpent:
				err = r.err
			default:
				err = fmt.Errorf("the JSON Schema library failed: %v", r)
			}
		}
	}()
	verr := c.root.Validate(v)
	c.flush()
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return nil, verr
	}
	return flatten(ve), nil
}

// flatten turns the library's error tree into violations, one per failed
// assertion, without duplicates.
func flatten(e *jsonschema.ValidationError) []Violation {
	shorten(e)
	var out []Violation
	seen := map[Violation]bool{}
	add := func(v Violation) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		ptr := pointerOf(e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
			for _, cause := range e.Causes {
				walk(cause)
			}
			if len(e.Causes) == 0 {
				add(Violation{Pointer: ptr, Message: k.LocalizedString(printer)})
			}
		case *kind.Required:
			for _, m := range k.Missing {
				add(Violation{Pointer: ptr + "/" + escapePtr(m), Message: "is required"})
			}
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				add(Violation{Pointer: ptr + "/" + escapePtr(p), Message: "is not allowed by the schema (additionalProperties)"})
			}
		case *kind.FalseSchema:
			add(Violation{Pointer: ptr, Message: "is not allowed by the schema"})
		default:
			msg := k.LocalizedString(printer)
			if len(e.Causes) > 0 {
				msg += ": " + summarize(ptr, e.Causes)
			}
			add(Violation{Pointer: ptr, Message: msg})
		}
	}
	walk(e)
	for i := range out {
		out[i].Message = truncate(out[i].Message, maxMessage)
	}
	sortViolations(out)
	return out
}

// maxMessage bounds a violation's message: the library quotes values in
// full, and a value can be long.
const maxMessage = 300

// shorten cuts the strings the library would quote in full in the
// messages of e and its causes to what a message shows (maxMessage):
// formatting a long value once per failed pattern would otherwise copy it
// (and its quoted form) as many times as the schema has patterns.
func shorten(e *jsonschema.ValidationError) {
	switch k := e.ErrorKind.(type) {
	case *kind.Pattern:
		k.Got = cut(k.Got, maxMessage)
	case *kind.Format:
		if s, ok := k.Got.(string); ok {
			k.Got = cut(s, maxMessage)
		}
	}
	for _, c := range e.Causes {
		shorten(c)
	}
}

// cut is s cut to at most n bytes, on a rune boundary: a message made of
// it and truncated to n reads as one made of s.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// truncate shortens s to at most n bytes, on a rune boundary, marking the
// cut with "...".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// summarize lists the violations of the alternatives of an anyOf or oneOf
// (or the causes of another composite failure) in one message.
func summarize(ptr string, causes []*jsonschema.ValidationError) string {
	var parts []string
	for i, cause := range causes {
		var msgs []string
		for _, v := range flatten(cause) {
			rel := strings.TrimPrefix(v.Pointer, ptr)
			if rel != "" && rel != v.Pointer {
				msgs = append(msgs, rel+": "+v.Message)
			} else if rel == "" {
				msgs = append(msgs, v.Message)
			} else {
				msgs = append(msgs, v.Pointer+": "+v.Message)
			}
		}
		label := strconv.Itoa(i + 1)
		if len(causes) == 1 {
			parts = append(parts, strings.Join(msgs, ", "))
			continue
		}
		parts = append(parts, "("+label+") "+strings.Join(msgs, ", "))
	}
	return strings.Join(parts, "; ")
}

func pointerOf(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escapePtr(t))
	}
	return b.String()
}

func sortViolations(vs []Violation) {
	slices.SortFunc(vs, func(a, b Violation) int {
		if c := strings.Compare(a.Resource, b.Resource); c != 0 {
			return c
		}
		if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// chargeCompile charges the work of compiling doc, a decoded schema, to
// the render's budget of schema steps before it is done; a nil budget
// bounds this one compilation by the limit alone. The library checks
// every subschema it queues against each one queued before it: n²/2
// steps for n subschemas, counted here as every object and boolean of doc
// (which may be a subschema). A schema of 20,000 subschemas takes seconds
// to compile; it is refused at once instead.
func chargeCompile(budget *limits.Budget, name string, doc any) error {
	if budget == nil {
		budget = limits.NewBudget(limits.Current())
	}
	n := subschemas(doc)
	return budget.Charge(limits.SchemaSteps, n*(n+1)/2, fmt.Sprintf("%s (compiling %d subschemas)", name, n))
}

// subschemas counts the objects and booleans of doc.
func subschemas(doc any) int64 {
	var n int64
	stack := []any{doc}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch t := v.(type) {
		case map[string]any:
			n++
			for _, c := range t {
				stack = append(stack, c)
			}
		case []any:
			stack = append(stack, t...)
		case bool:
			n++
		}
	}
	return n
}
