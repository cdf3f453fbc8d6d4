package bundle

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

var (
	// opaqueTypes decode themselves from any shape of YAML.
	opaqueTypes = map[reflect.Type]bool{
		reflect.TypeFor[yaml.Node]():     true,
		reflect.TypeFor[rawMaintainer](): true,
	}
	lineRE    = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	typeErrRE = regexp.MustCompile("^cannot unmarshal !!(\\w+) `(.*)` into (.*)$")
)

// parseYAML parses one YAML document. Syntax errors are added to p with
// their line; it returns nil when the document cannot be parsed.
func parseYAML(file string, data []byte, p *problems) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		p.list = append(p.list, yamlErrors(file, err)...)
		return nil
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		p.add(file, 0, "", "file is empty")
		return nil
	}
	return doc.Content[0]
}

// decodeStrict checks n against out's type for unknown fields, then
// decodes it. It reports whether decoding succeeded without problems.
func decodeStrict(file string, n *yaml.Node, out any, p *problems) bool {
	before := len(p.list)
	checkKnown(file, n, reflect.TypeOf(out), "", p)
	if err := n.Decode(out); err != nil {
		p.list = append(p.list, yamlErrors(file, err)...)
	}
	return len(p.list) == before
}

// checkKnown walks n alongside the Go type t and reports every mapping key
// that t does not declare, with its line and field path.
func checkKnown(file string, n *yaml.Node, t reflect.Type, path string, p *problems) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if opaqueTypes[t] {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return // a type error, reported by Decode
		}
		fields := map[string]reflect.Type{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			fields[name] = f.Type
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			ft, ok := fields[k.Value]
			if !ok {
				where := path
				if where == "" {
					where = "(top level)"
				}
				p.add(file, k.Line, where, "unknown field %q", k.Value)
				continue
			}
			checkKnown(file, v, ft, joinPath(path, k.Value), p)
		}
	case reflect.Slice:
		if n.Kind == yaml.SequenceNode {
			for i, c := range n.Content {
				checkKnown(file, c, t.Elem(), fmt.Sprintf("%s[%d]", path, i), p)
			}
		}
	case reflect.Map:
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				checkKnown(file, n.Content[i+1], t.Elem(), joinPath(path, n.Content[i].Value), p)
			}
		}
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// yamlErrors turns a go-yaml error into FieldErrors with lines.
func yamlErrors(file string, err error) []*FieldError {
	var te *yaml.TypeError
	var msgs []string
	if errors.As(err, &te) {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	out := make([]*FieldError, 0, len(msgs))
	for _, m := range msgs {
		fe := &FieldError{File: file, Msg: strings.TrimPrefix(m, "yaml: ")}
		if sm := lineRE.FindStringSubmatch(m); sm != nil {
			fe.Line, _ = strconv.Atoi(sm[1])
			fe.Msg = sm[2]
		}
		if sm := typeErrRE.FindStringSubmatch(fe.Msg); sm != nil {
			fe.Msg = fmt.Sprintf("expected %s, got %s %q", describeGoType(sm[3]), sm[1], sm[2])
		}
		out = append(out, fe)
	}
	return out
}

func describeGoType(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	case t == "string":
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "an integer"
	case strings.HasPrefix(t, "float"):
		return "a number"
	default:
		return "a mapping"
	}
}
