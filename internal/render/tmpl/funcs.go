package tmpl

import (
	"maps"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	yamlv2 "go.yaml.in/yaml/v2"
)

// Allowed lists every function templates may call: KUDO's toYaml and
// Sprig's functions that read nothing outside the render (no
// environment, files, DNS, clock or randomness) and cost what their
// arguments are worth. It is an allow-list: a function a new Sprig
// version adds is not available until it is listed here.
var Allowed = []string{
	// strings
	"abbrev", "abbrevboth", "trunc", "trim", "upper", "lower", "title", "untitle", "substr", "repeat",
	"trimall", "trimAll", "trimSuffix", "trimPrefix", "nospace", "initials", "swapcase",
	"snakecase", "camelcase", "kebabcase", "wrap", "wrapWith", "contains", "hasPrefix", "hasSuffix",
	"quote", "squote", "cat", "indent", "nindent", "replace", "plural", "sha1sum", "sha256sum",
	"sha512sum", "adler32sum", "toString", "atoi", "int", "int64", "float64", "seq", "toDecimal",
	"split", "splitList", "splitn", "toStrings", "until", "untilStep", "join", "sortAlpha",
	// numbers
	"add1", "add", "sub", "div", "mod", "mul", "add1f", "addf", "subf", "divf", "mulf",
	"biggest", "max", "min", "maxf", "minf", "ceil", "floor", "round",
	// defaults and types
	"default", "empty", "coalesce", "all", "any", "compact", "mustCompact", "fromJson", "toJson",
	"toPrettyJson", "toRawJson", "mustFromJson", "mustToJson", "mustToPrettyJson", "mustToRawJson",
	"ternary", "deepCopy", "mustDeepCopy", "typeOf", "typeIs", "typeIsLike", "kindOf", "kindIs",
	"deepEqual",
	// encodings and paths
	"b64enc", "b64dec", "b32enc", "b32dec", "base", "dir", "clean", "ext", "isAbs", "osBase",
	"osClean", "osDir", "osExt", "osIsAbs",
	// lists
	"tuple", "list", "dict", "get", "set", "unset", "hasKey", "pluck", "keys", "pick", "omit",
	"merge", "mergeOverwrite", "mustMerge", "mustMergeOverwrite", "values", "append", "push",
	"mustAppend", "mustPush", "prepend", "mustPrepend", "first", "mustFirst", "rest", "mustRest",
	"last", "mustLast", "initial", "mustInitial", "reverse", "mustReverse", "uniq", "mustUniq",
	"without", "mustWithout", "has", "mustHas", "slice", "mustSlice", "concat", "dig", "chunk",
	"mustChunk",
	// regular expressions (Go's: linear time)
	"regexMatch", "mustRegexMatch", "regexFindAll", "mustRegexFindAll", "regexFind", "mustRegexFind",
	"regexReplaceAll", "mustRegexReplaceAll", "regexReplaceAllLiteral", "mustRegexReplaceAllLiteral",
	"regexSplit", "mustRegexSplit", "regexQuoteMeta",
	// versions, URLs, crypto that only reads its arguments
	"semver", "semverCompare", "urlParse", "urlJoin", "decryptAES", "buildCustomCert",
	// control
	"fail", "duration",
}

// listBuilders build lists or dicts: their results are bounded in items.
var listBuilders = []string{
	"list", "tuple", "dict", "append", "push", "mustAppend", "mustPush", "prepend", "mustPrepend",
	"concat", "uniq", "mustUniq", "without", "mustWithout", "compact", "mustCompact", "pick", "omit",
	"chunk", "mustChunk", "regexFindAll", "mustRegexFindAll", "regexSplit", "mustRegexSplit",
	"toStrings", "sortAlpha", "initial", "mustInitial", "rest", "mustRest", "reverse", "mustReverse",
	"slice", "mustSlice", "pluck", "fromJson", "mustFromJson",
}

// walkers walk or copy their arguments: the arguments are checked first.
var walkers = []string{
	"toJson", "toPrettyJson", "toRawJson", "mustToJson", "mustToPrettyJson", "mustToRawJson",
	"deepCopy", "mustDeepCopy", "deepEqual", "b64enc", "b32enc", "sha1sum", "sha256sum", "sha512sum",
	"adler32sum", "toString", "default", "empty", "coalesce", "ternary",
}

func sprigHermetic() map[string]any {
	m := map[string]any{}
	for k, v := range sprig.HermeticTxtFuncMap() {
		m[k] = v
	}
	return m
}

// FuncMap returns the functions templates may call, bounded.
func FuncMap() template.FuncMap {
	m := template.FuncMap{}
	for _, name := range Allowed {
		if f, ok := sprigFuncs()[name]; ok {
			m[name] = f
		}
	}
	for _, name := range listBuilders {
		if f, ok := m[name]; ok {
			m[name] = guardResult(name, f)
		}
	}
	for _, name := range walkers {
		if f, ok := m[name]; ok {
			m[name] = guardArgs(name, f)
		}
	}
	maps.Copy(m, guarded())
	m["set"] = gSet
	for _, name := range []string{"merge", "mergeOverwrite", "mustMerge", "mustMergeOverwrite"} {
		m[name] = gMerge(name)
	}
	m["toYaml"] = guardArgs("toYaml", toYaml)
	m[emitFunc] = gEmit
	return m
}

// Denied reports whether a function name is withheld from templates:
// it is not on the allow-list (nor one of text/template's builtins).
func Denied(name string) bool {
	_, ok := funcs()[name]
	return !ok && !builtins[name]
}

// builtins are text/template's own functions that stay as they are.
var builtins = map[string]bool{"and": true, "or": true, "not": true, "len": true, "index": true, "call": true,
	"eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true}

// toYaml is KUDO's: YAML of the value, with its trailing newline.
func toYaml(v any) (string, error) {
	out, err := yamlv2.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(out), nil
}
