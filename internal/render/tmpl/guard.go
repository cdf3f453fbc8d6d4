package tmpl

import (
	"fmt"
	"html/template"
	"math"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kudo-render/kudo-render/internal/limits"
)

// Templates come from other teams: every function whose cost grows with
// an argument is checked before it allocates (the lengths it would
// produce), every function that builds lists or dicts checks what it
// built (items, nesting, printed size, cycles), and functions that would
// walk a value that contains itself refuse it. A failed check panics with
// an error; text/template turns that into an error of the call, with the
// template line.

// tooLarge is the error of a function whose result would pass a limit.
func tooLarge(fn, limit string, max int64) error {
	return limits.Err(limit, max, "function "+fn)
}

func check(ok bool, fn, limit string, max int64) {
	if !ok {
		panic(tooLarge(fn, limit, max))
	}
}

func maxBytes() int64 { return limits.Current().TemplateBytes }
func maxItems() int64 { return limits.Current().ListItems }
func maxDepth() int64 { return limits.Current().YAMLDepth }

// checkText checks the length a string function would produce.
func checkText(fn string, n int64) {
	check(n >= 0 && n <= maxBytes(), fn, "template-bytes", maxBytes())
}

// checkCount checks the number of items a function would produce.
func checkCount(fn string, n int64) {
	check(n >= 0 && n <= maxItems(), fn, "list-items", maxItems())
}

// guardValue checks a value a function built or is about to walk: its
// nesting (which also refuses values that contain themselves), its items
// and its printed size.
func guardValue(fn string, v any) {
	w := &walker{maxDepth: maxDepth(), maxWeight: maxBytes(), maxItems: maxItems()}
	if err := w.walk(reflect.ValueOf(v), 0); err != nil {
		panic(fmt.Errorf("function %s: %w", fn, err))
	}
}

// walker measures a value: nesting depth, items of each list and map,
// and the size it prints to (its weight), stopping at the first limit.
type walker struct {
	maxDepth, maxWeight, maxItems int64
	weight                        int64
}

func (w *walker) walk(v reflect.Value, depth int64) error {
	if depth > w.maxDepth {
		return limits.Err("yaml-depth", w.maxDepth, "a value nested this deep (or containing itself)")
	}
	if w.weight > w.maxWeight {
		return limits.Err("template-bytes", w.maxWeight, "the printed size of a value")
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			w.weight += 5
			return nil
		}
		return w.walk(v.Elem(), depth)
	case reflect.String:
		w.weight += int64(v.Len()) + 2
	case reflect.Slice, reflect.Array:
		if int64(v.Len()) > w.maxItems {
			return limits.Err("list-items", w.maxItems, "a list")
		}
		w.weight += 2
		for i := 0; i < v.Len(); i++ {
			if err := w.walk(v.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		if int64(v.Len()) > w.maxItems {
			return limits.Err("list-items", w.maxItems, "a dict")
		}
		w.weight += 2
		it := v.MapRange()
		for it.Next() {
			w.weight += int64(len(fmt.Sprint(it.Key().Interface()))) + 2
			if err := w.walk(it.Value(), depth+1); err != nil {
				return err
			}
		}
	default:
		w.weight += 8
	}
	return nil
}

// guarded returns the bounded versions of the functions that need them.
func guarded() map[string]any {
	return map[string]any{
		"repeat":                     gRepeat,
		"indent":                     gIndent,
		"nindent":                    gNindent,
		"replace":                    gReplace,
		"regexReplaceAll":            gRegexReplace("regexReplaceAll", false, false),
		"regexReplaceAllLiteral":     gRegexReplace("regexReplaceAllLiteral", true, false),
		"mustRegexReplaceAll":        gRegexReplace("mustRegexReplaceAll", false, true),
		"mustRegexReplaceAllLiteral": gRegexReplace("mustRegexReplaceAllLiteral", true, true),
		"wrapWith":                   gWrapWith,
		"join":                       gJoin,
		"cat":                        gCat,
		"quote":                      gQuote,
		"squote":                     gSquote,
		"printf":                     gPrintf,
		"print":                      gPrint,
		"println":                    gPrintln,
		"html":                       gEscape("html", 6, template.HTMLEscaper),
		"js":                         gEscape("js", 6, template.JSEscaper),
		"urlquery":                   gEscape("urlquery", 3, func(a ...any) string { return url.QueryEscape(fmt.Sprint(a...)) }),
		"until":                      gUntil,
		"untilStep":                  gUntilStep,
		"seq":                        gSeq,
		"splitList":                  gSplitList,
		"split":                      gSplit,
		"splitn":                     gSplitn,
		"keys":                       gKeys,
		"values":                     gValues,
	}
}

func gRepeat(count int, s string) string {
	checkText("repeat", int64(count)*int64(len(s)))
	return strings.Repeat(s, count)
}

func indentLen(spaces int, s string) int64 {
	return int64(spaces)*int64(strings.Count(s, "\n")+1) + int64(len(s))
}

func gIndent(spaces int, s string) string {
	checkText("indent", indentLen(spaces, s))
	pad := strings.Repeat(" ", spaces)
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

func gNindent(spaces int, s string) string {
	checkText("nindent", indentLen(spaces, s)+1)
	return "\n" + gIndent(spaces, s)
}

func gReplace(old, new, src string) string {
	n := int64(strings.Count(src, old))
	checkText("replace", int64(len(src))+n*(int64(len(new))-int64(len(old))))
	return strings.ReplaceAll(src, old, new)
}

func gRegexReplace(fn string, literal, must bool) any {
	do := func(regex, s, repl string) (string, error) {
		r, err := regexp.Compile(regex)
		if err != nil {
			return "", err
		}
		matches := int64(len(r.FindAllStringIndex(s, int(maxItems())+1)))
		checkCount(fn+" (matches)", matches)
		per := int64(len(repl))
		if !literal {
			per += int64(strings.Count(repl, "$")) * int64(len(s))
		}
		checkText(fn, int64(len(s))+matches*per)
		if literal {
			return r.ReplaceAllLiteralString(s, repl), nil
		}
		return r.ReplaceAllString(s, repl), nil
	}
	if must {
		return do
	}
	return func(regex, s, repl string) string {
		out, err := do(regex, s, repl)
		if err != nil {
			panic(err)
		}
		return out
	}
}

func gWrapWith(l int, sep, str string) string {
	if l < 1 {
		l = 1
	}
	checkText("wrapWith", int64(len(str))+int64(len(str)/l+1)*int64(len(sep)))
	return sprigFunc("wrapWith").(func(int, string, string) string)(l, sep, str)
}

func gJoin(sep string, v any) string {
	strs := toStrs(v)
	n := int64(len(sep)) * int64(max(len(strs)-1, 0))
	for _, s := range strs {
		n += int64(len(s))
	}
	checkText("join", n)
	return strings.Join(strs, sep)
}

// toStrs is Sprig's strslice: the text of every item of a list.
func toStrs(v any) []string {
	guardValue("join", v)
	return sprigFunc("toStrings").(func(any) []string)(v)
}

func argsWeight(fn string, args []any) int64 {
	w := &walker{maxDepth: maxDepth(), maxWeight: maxBytes(), maxItems: maxItems()}
	for _, a := range args {
		if err := w.walk(reflect.ValueOf(a), 0); err != nil {
			panic(fmt.Errorf("function %s: %w", fn, err))
		}
	}
	return w.weight
}

func gCat(v ...any) string {
	checkText("cat", argsWeight("cat", v)+int64(len(v)))
	return sprigFunc("cat").(func(...any) string)(v...)
}

func gQuote(v ...any) string {
	checkText("quote", 2*argsWeight("quote", v)+int64(3*len(v)))
	return sprigFunc("quote").(func(...any) string)(v...)
}

func gSquote(v ...any) string {
	checkText("squote", argsWeight("squote", v)+int64(3*len(v)))
	return sprigFunc("squote").(func(...any) string)(v...)
}

// gPrintf refuses widths and precisions beyond the limit (fmt allocates
// them: %0999999999d) and arguments that print too long.
func gPrintf(format string, args ...any) string {
	checkText("printf", int64(len(format))+argsWeight("printf", args))
	checkFormat(format, args)
	return fmt.Sprintf(format, args...)
}

func checkFormat(format string, args []any) {
	arg := 0
	num := func(i int) (int64, int) {
		var n int64
		for i < len(format) && format[i] >= '0' && format[i] <= '9' {
			if n < math.MaxInt32 {
				n = n*10 + int64(format[i]-'0')
			}
			i++
		}
		return n, i
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		for _, part := range []bool{false, true} { // width, then precision
			if part {
				if i >= len(format) || format[i] != '.' {
					break
				}
				i++
			}
			var n int64
			if i < len(format) && format[i] == '*' {
				if arg < len(args) {
					if v, ok := args[arg].(int); ok {
						n = int64(v)
					}
				}
				arg++
				i++
			} else {
				n, i = num(i)
			}
			checkText("printf (width or precision)", n)
		}
		if i < len(format) && format[i] != '%' {
			arg++
		}
	}
}

func gPrint(args ...any) string {
	checkText("print", argsWeight("print", args)+int64(len(args)))
	return fmt.Sprint(args...)
}

func gPrintln(args ...any) string {
	checkText("println", argsWeight("println", args)+int64(len(args))+1)
	return fmt.Sprintln(args...)
}

func gEscape(fn string, growth int64, f func(...any) string) func(...any) string {
	return func(args ...any) string {
		checkText(fn, growth*argsWeight(fn, args))
		return f(args...)
	}
}

func gUntil(count int) []int {
	checkCount("until", int64(math.Abs(float64(count))))
	return sprigFunc("until").(func(int) []int)(count)
}

func gUntilStep(start, stop, step int) []int {
	checkCount("untilStep", stepCount(int64(start), int64(stop), int64(step)))
	return sprigFunc("untilStep").(func(int, int, int) []int)(start, stop, step)
}

// stepCount is the number of items from start to stop by step, without
// overflowing.
func stepCount(start, stop, step int64) int64 {
	if step == 0 || (step > 0) != (stop > start) {
		return 0
	}
	span := math.Abs(float64(stop) - float64(start))
	n := math.Ceil(span / math.Abs(float64(step)))
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int64(n)
}

func gSeq(params ...int) string {
	var n int64
	switch len(params) {
	case 1:
		n = int64(math.Abs(float64(params[0])))
	case 2:
		n = int64(math.Abs(float64(params[1])-float64(params[0]))) + 1
	case 3:
		n = stepCount(int64(params[0]), int64(params[2]), int64(params[1])) + 1
	}
	checkCount("seq", n)
	checkText("seq", n*12)
	return sprigFunc("seq").(func(...int) string)(params...)
}

func splitCount(fn, sep, s string) {
	n := int64(strings.Count(s, sep)) + 1
	if sep == "" {
		n = int64(utf8.RuneCountInString(s))
	}
	checkCount(fn, n)
}

func gSplitList(sep, orig string) []string {
	splitCount("splitList", sep, orig)
	return strings.Split(orig, sep)
}

func gSplit(sep, orig string) map[string]string {
	splitCount("split", sep, orig)
	return sprigFunc("split").(func(string, string) map[string]string)(sep, orig)
}

func gSplitn(sep string, n int, orig string) map[string]string {
	checkCount("splitn", int64(n))
	return sprigFunc("splitn").(func(string, int, string) map[string]string)(sep, n, orig)
}

// gKeys returns the keys of the dicts in sorted order (Sprig's follow
// map order, which changes from run to run).
func gKeys(dicts ...map[string]any) []string {
	var k []string
	for _, d := range dicts {
		for key := range d {
			k = append(k, key)
		}
	}
	slices.Sort(k)
	return k
}

// gValues returns the values of a dict in the order of its sorted keys.
func gValues(dict map[string]any) []any {
	out := make([]any, 0, len(dict))
	for _, k := range gKeys(dict) {
		out = append(out, dict[k])
	}
	return out
}

// sprigFuncs is Sprig's hermetic function map, read once.
// It is built on first use, so commands that render nothing never pay for it.
var sprigFuncs = sync.OnceValue(sprigHermetic)

func sprigFunc(name string) any {
	f, ok := sprigFuncs()[name]
	if !ok {
		panic("tmpl: no Sprig function " + name)
	}
	return f
}

// emitFunc is called at the end of every action that prints: it checks
// the value before text/template formats it (fmt would build the whole
// text of a value that prints to gigabytes, or recurse forever into one
// that contains itself).
const emitFunc = "__kudoRenderEmit"

func gEmit(v any) any {
	guardValue("(printing a value)", v)
	return v
}

// guardResult wraps a function that builds a list or a dict: the result
// may not have more items than the limit.
func guardResult(fn string, f any) any {
	fv := reflect.ValueOf(f)
	return reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
		var out []reflect.Value
		if fv.Type().IsVariadic() {
			out = fv.CallSlice(args)
		} else {
			out = fv.Call(args)
		}
		if len(out) > 0 {
			if r := out[0]; (r.Kind() == reflect.Slice || r.Kind() == reflect.Map) && int64(r.Len()) > maxItems() {
				panic(tooLarge(fn, "list-items", maxItems()))
			}
		}
		return out
	}).Interface()
}

// guardArgs wraps a function that walks or copies its arguments
// (serialisers, deepCopy, merges): they are checked first.
func guardArgs(fn string, f any) any {
	fv := reflect.ValueOf(f)
	return reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
		for _, a := range args {
			guardValue(fn, a.Interface())
		}
		if fv.Type().IsVariadic() {
			return fv.CallSlice(args)
		}
		return fv.Call(args)
	}).Interface()
}

// gSet is Sprig's set, refusing to put a dict into itself.
func gSet(d map[string]any, key string, value any) map[string]any {
	if contains(reflect.ValueOf(value), reflect.ValueOf(d).Pointer(), 0) {
		panic(fmt.Errorf("function set: the value contains the dict it is set in: a value may not contain itself"))
	}
	guardValue("set", value)
	d[key] = value
	checkCount("set", int64(len(d)))
	return d
}

// contains reports whether v holds the map at ptr (depth-bounded).
func contains(v reflect.Value, ptr uintptr, depth int64) bool {
	if depth > maxDepth() || !v.IsValid() {
		return false
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		return !v.IsNil() && contains(v.Elem(), ptr, depth)
	case reflect.Map:
		if v.Pointer() == ptr {
			return true
		}
		it := v.MapRange()
		for it.Next() {
			if contains(it.Value(), ptr, depth+1) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if contains(v.Index(i), ptr, depth+1) {
				return true
			}
		}
	}
	return false
}

// gMerge wraps Sprig's merges: no source may contain the destination.
func gMerge(fn string) any {
	f := sprigFunc(fn)
	fv := reflect.ValueOf(f)
	return reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
		dst := args[0].Pointer()
		for _, a := range args[1:] {
			for i := 0; i < a.Len(); i++ {
				if contains(a.Index(i), dst, 0) {
					panic(fmt.Errorf("function %s: a source contains the destination: a value may not contain itself", fn))
				}
				guardValue(fn, a.Index(i).Interface())
			}
		}
		out := fv.CallSlice(args)
		if int64(args[0].Len()) > maxItems() {
			panic(tooLarge(fn, "list-items", maxItems()))
		}
		return out
	}).Interface()
}

// budget bounds the work of one template execution that no single call
// shows: list functions copy their list (Sprig's append does), so a loop
// of appends costs the square of its length. Every element a list
// function produces is counted.
type budget struct {
	copied, max int64
}

func newBudget() *budget { return &budget{max: 100 * maxItems()} }

func (b *budget) spend(fn string, n int) {
	b.copied += int64(n)
	if b.copied > b.max {
		panic(limits.Err("list-items", b.max/100, "function "+fn+" (the items list functions build in one template, summed, may not pass 100 times it)"))
	}
}

// budgeted returns the list builders names of one execution, counting
// what they produce in b.
func budgeted(b *budget, names []string) map[string]any {
	out := map[string]any{}
	for _, name := range names {
		f, ok := funcs()[name]
		if !ok {
			continue
		}
		fv := reflect.ValueOf(f)
		name := name
		out[name] = reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
			var res []reflect.Value
			if fv.Type().IsVariadic() {
				res = fv.CallSlice(args)
			} else {
				res = fv.Call(args)
			}
			if len(res) > 0 && (res[0].Kind() == reflect.Slice || res[0].Kind() == reflect.Map) {
				b.spend(name, res[0].Len())
			}
			return res
		}).Interface()
	}
	return out
}
