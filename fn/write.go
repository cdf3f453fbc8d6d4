package fn

import (
	"bytes"
	"path"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/par"
	"github.com/kudo-render/kudo-render/internal/postprocess/enhance"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// place gives every generated object its owner marker and its path below
// rendered/<instance>/ (rendered/common/<operator>/ for common/ objects),
// named by output.Names, in both the internal and the legacy annotations
// that orchestrators read.
func (f *Function) place(items []engine.Item, reqs []engine.Request, format annotationFormat, legacy map[*object.Object]string) {
	objs := engine.Objects(items)
	byInstance := map[string]engine.Request{}
	for _, r := range reqs {
		byInstance[r.Bundle.Name+"\x00"+r.Instance.Name] = r
	}
	top := topRequests(items, reqs)
	dirs := make([]string, len(objs))
	owners := make([]string, len(objs))
	byDir := map[string][]int{}
	for i, o := range objs {
		dirs[i], owners[i] = placeOf(o, reqs, byInstance)
		if owners[i] == "" { // an object of a KudoOperator dependency
			if r, ok := top[items[i].Meta.Namespace+"/"+items[i].Meta.Instance]; ok {
				owners[i] = ownerOf(r)
			}
		}
		byDir[dirs[i]] = append(byDir[dirs[i]], i)
	}
	files := make([]string, len(objs))
	for dir, idx := range byDir {
		group := make([]*object.Object, len(idx))
		for j, i := range idx {
			group[j] = objs[i]
		}
		for j, name := range output.Names(group) {
			files[idx[j]] = path.Join(dir, name)
		}
	}
	for i, o := range objs {
		annotate(o, owners[i], files[i], format, legacy)
	}
}

// topRequests maps the instances KudoOperator tasks install
// (namespace/name) to the request whose render installs them, following
// Item.Parent up to an instance a request names: a later run replaces
// their objects as it replaces the request's.
func topRequests(items []engine.Item, reqs []engine.Request) map[string]engine.Request {
	named := map[string]engine.Request{}
	for _, r := range reqs {
		named[r.Instance.Namespace+"/"+r.Instance.Name] = r
	}
	parent := map[string]string{}
	for _, it := range items {
		if it.Parent != "" {
			parent[it.Meta.Namespace+"/"+it.Meta.Instance] = it.Meta.Namespace + "/" + it.Parent
		}
	}
	top := map[string]engine.Request{}
	for child := range parent {
		inst := child
		for range len(parent) + 1 { // a chain of dependencies, never a cycle
			if r, ok := named[inst]; ok {
				top[child] = r
				break
			}
			if inst = parent[inst]; inst == "" {
				break
			}
		}
	}
	return top
}

// ComposablesDir is the folder below RenderedDir of the objects that
// Composable items generate (no instance is named so: names of
// Kubernetes objects have no underscore).
const ComposablesDir = "_composables"

// placeComposed gives the objects of Composables their owner marker
// (owners, one per object) and their path below
// rendered/_composables/, named by output.Names.
func placeComposed(objs []*object.Object, owners []string, format annotationFormat, legacy map[*object.Object]string) {
	for i, name := range output.Names(objs) {
		annotate(objs[i], owners[i], path.Join(RenderedDir, ComposablesDir, name), format, legacy)
	}
}

// annotate sets a generated object's owner marker and its path, in the
// annotations the format asks for.
func annotate(o *object.Object, owner, file string, format annotationFormat, legacy map[*object.Object]string) {
	ann := map[string]string{AnnOwner: owner}
	if format.internal {
		ann[string(kioutil.PathAnnotation)], ann[string(kioutil.IndexAnnotation)] = file, "0"
	}
	object.SetStrings(o.Map, ann, "metadata", "annotations")
	if format.legacy {
		legacy[o] = file
	}
}

// annotationFormat says which path and index annotations the output
// carries: those the input items use, both when there are no input items
// (kyaml's rule, which orchestrators expect).
type annotationFormat struct{ internal, legacy bool }

func formatOf(items []*item) annotationFormat {
	if len(items) == 0 {
		return annotationFormat{internal: true, legacy: true}
	}
	var f annotationFormat
	for _, it := range items {
		a := it.header.Annotations
		f.internal = f.internal || a[string(kioutil.PathAnnotation)] != "" || a[string(kioutil.IndexAnnotation)] != "" || a[string(kioutil.IdAnnotation)] != ""
		f.legacy = f.legacy || a[string(kioutil.LegacyPathAnnotation)] != "" || a[string(kioutil.LegacyIndexAnnotation)] != "" || a[string(kioutil.LegacyIdAnnotation)] != ""
	}
	return f
}

// placeOf returns the folder and the owner marker of a rendered object.
// common/ objects belong to the framework: owned by the first request of
// that framework.
func placeOf(o *object.Object, reqs []engine.Request, byInstance map[string]engine.Request) (string, string) {
	op := o.String("metadata", "labels", enhance.LabelOperator)
	inst := o.String("metadata", "labels", enhance.LabelInstance)
	if r, ok := byInstance[op+"\x00"+inst]; ok {
		return path.Join(RenderedDir, inst), ownerOf(r)
	}
	for _, r := range reqs {
		if r.Bundle.Name == op {
			return path.Join(RenderedDir, "common", op), ownerOf(r)
		}
	}
	return path.Join(RenderedDir, "common", op), ""
}

// encodeItems returns the text of each output item: an input item's
// text as it was read, an object encoded (on all cores) as the CLI
// encodes it, with the legacy path annotations of legacy (fast path).
func encodeItems(items []outItem, legacy map[*object.Object]string) ([][]byte, error) {
	encoded := make([][]byte, len(items))
	errs := make([]error, len(items))
	par.Do(len(items), func(i int) {
		if o := items[i].obj; o != nil {
			encoded[i], errs[i] = encodeObject(o, legacy)
		} else {
			encoded[i] = items[i].in.text
		}
	})
	return encoded, par.FirstError(errs)
}

// encodeObject encodes an object as the CLI does, with its legacy path
// annotations when legacy holds them.
func encodeObject(o *object.Object, legacy map[*object.Object]string) ([]byte, error) {
	text, err := o.Marshal()
	if err != nil {
		return nil, err
	}
	if p, ok := legacy[o]; ok {
		text = appendLegacy(text, p)
	}
	return text, nil
}

// writeList writes a ResourceList in block style: the items' texts, the
// functionConfig's text, and the results.
func writeList(encoded [][]byte, functionConfig []byte, results framework.Results) ([]byte, error) {
	var resultText []byte
	if len(results) > 0 {
		var err error
		if resultText, err = kyaml.Marshal(results); err != nil {
			return nil, err
		}
	}
	// The list is written into one buffer of about the right size: growing
	// it by doubling copied and cleared it twice over.
	size := 64 + indentedSize(functionConfig) + indentedSize(resultText)
	for _, text := range encoded {
		size += indentedSize(text)
	}
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n")
	if len(encoded) == 0 {
		b.WriteString("items: []\n")
	} else {
		b.WriteString("items:\n")
	}
	for _, text := range encoded {
		writeIndented(&b, text, "- ", "  ")
	}
	if len(bytes.TrimSpace(functionConfig)) > 0 {
		b.WriteString("functionConfig:\n")
		writeIndented(&b, functionConfig, "  ", "  ")
	}
	if len(results) > 0 {
		b.WriteString("results:\n")
		writeIndented(&b, resultText, "", "")
	}
	return b.Bytes(), nil
}

// writeIndented writes text with first before its first line and indent
// before every other non-empty line.
func writeIndented(b *bytes.Buffer, text []byte, first, indent string) {
	text = bytes.TrimRight(text, "\n")
	for i := 0; ; i++ {
		line, rest, more := bytes.Cut(text, []byte("\n"))
		switch {
		case i == 0:
			b.WriteString(first)
		case len(line) > 0:
			b.WriteString(indent)
		}
		b.Write(line)
		b.WriteByte('\n')
		if !more {
			return
		}
		text = rest
	}
}

// indentedSize is at most what writeIndented writes for text with a
// prefix of two bytes per line.
func indentedSize(text []byte) int {
	return len(text) + 3*(bytes.Count(text, []byte("\n"))+1)
}

// appendLegacy adds the legacy path and index annotations at the end of
// an encoded object's annotations, single-quoted, where kyaml's
// annotation reconciliation puts them (so output stays as before).
func appendLegacy(text []byte, path string) []byte {
	lines := bytes.Split(text, []byte("\n"))
	at := -1
	for i := 0; i+1 < len(lines); i++ {
		if string(lines[i]) == "metadata:" && string(lines[i+1]) == "  annotations:" {
			at = i + 2
			for at < len(lines) && indentOf(lines[at]) >= 4 {
				at++
			}
			break
		}
	}
	if at < 0 {
		return text
	}
	quoted := "'" + strings.ReplaceAll(path, "'", "''") + "'"
	add := [][]byte{
		[]byte("    " + string(kioutil.LegacyPathAnnotation) + ": " + quoted),
		[]byte("    " + string(kioutil.LegacyIndexAnnotation) + ": '0'"),
	}
	out := append(append(append([][]byte{}, lines[:at]...), add...), lines[at:]...)
	return bytes.Join(out, []byte("\n"))
}
