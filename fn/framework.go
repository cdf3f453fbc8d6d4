package fn

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/par"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// The framework path: kyaml's fn/framework reads the ResourceList
// (kio.ByteReadWriter, as framework.Execute does), [Function.Process]
// runs on the framework.ResourceList, and the list is written with the
// items as kyaml encodes them and each generated object as the CLI
// encodes it. framework.Execute itself is not called because its writer
// encodes generated objects with go-yaml v3, which does not fold long
// strings as the CLI's encoder does: `kudo-render render` and the
// function would write the same object differently.

// frameworkOutput runs the function through kyaml's fn/framework.
func (f *Function) frameworkOutput(data []byte, lim limits.Limits) ([]byte, error) {
	rl, err := readFramework(data, lim)
	if err != nil {
		return nil, err
	}
	changed, err := f.processList(rl)
	if !changed {
		if err != nil {
			return nil, err
		}
		return data, nil // nothing to change: the input as it was
	}
	list, werr := f.writeFramework(rl)
	if werr != nil {
		return nil, werr
	}
	return list, err
}

// readFramework reads a ResourceList with kyaml's kio.ByteReadWriter, once
// it is known to decode into a bounded number of values (Output checked
// its characters), and checks that every item is a mapping whose aliases
// expand within the yaml-values limit: a list that cannot be read is
// refused (nothing is written), as on the fast path.
func readFramework(data []byte, lim limits.Limits) (*framework.ResourceList, error) {
	if err := strictyaml.CheckValues(data, "the ResourceList"); err != nil {
		return nil, err
	}
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(data), OmitReaderAnnotations: true}
	items, err := rw.Read()
	if err != nil {
		return nil, fmt.Errorf("cannot read the ResourceList: %s", strings.TrimPrefix(err.Error(), "MalformedYAMLError: "))
	}
	switch {
	case rw.WrappingKind == kio.ResourceListKind || rw.WrappingKind == "List":
	case len(items) == 1 && isList(items[0]):
		items = nil // a ResourceList of neither items nor functionConfig
	default:
		return nil, errNotResourceList
	}
	if err := checkItems(len(items), lim); err != nil {
		return nil, err
	}
	if _, err := nodeItems(items); err != nil {
		return nil, err
	}
	for i, n := range items {
		if err := checkAliases(i, n.YNode(), lim); err != nil {
			return nil, err
		}
	}
	return &framework.ResourceList{Items: items, FunctionConfig: rw.FunctionConfig}, nil
}

// checkAliases refuses an item whose aliases expand past the yaml-values
// limit, at the list's line and column, worded as the fast path words it:
// the item named for a block-style item, the list for a flow-style one
// (which the fast path decodes with the whole list).
func checkAliases(i int, n *yaml.Node, lim limits.Limits) error {
	_, err := strictyaml.CheckAliases(n, lim.YAMLValues)
	var ae *strictyaml.AliasError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ae):
		return itemReadError(i, n.Line, err)
	case n.Style&yaml.FlowStyle != 0:
		return fmt.Errorf("cannot read the ResourceList: line %d, column %d: %v", ae.At.Line, ae.At.Column, err)
	}
	return fmt.Errorf("cannot read items[%d]: line %d, column %d of the ResourceList: %v", i, ae.At.Line, ae.At.Column, err)
}

func isList(n *yaml.RNode) bool {
	k := scalarOf(child(n.YNode(), "kind"))
	return k == kio.ResourceListKind || k == "List"
}

var errNotResourceList = errors.New("cannot read the input: it is not a config.kubernetes.io/v1 ResourceList")

// outputNodes are the output items as nodes: input items as they were
// read (or marked), and generated objects parsed from their text as the
// CLI encodes it, which f.encoded keeps for writing.
func (f *Function) outputNodes(out []outItem, legacy map[*object.Object]string) ([]*yaml.RNode, error) {
	var objs []int
	for i, o := range out {
		if o.obj != nil {
			objs = append(objs, i)
		}
	}
	texts := make([][]byte, len(objs))
	errs := make([]error, len(objs))
	par.Do(len(objs), func(j int) {
		texts[j], errs[j] = encodeObject(out[objs[j]].obj, legacy)
	})
	if err := par.FirstError(errs); err != nil {
		return nil, err
	}
	parsed, err := parseNodes(texts)
	if err != nil {
		return nil, err
	}
	f.encoded = make(map[*yaml.Node][]byte, len(objs))
	nodes := make([]*yaml.RNode, len(out))
	for i, o := range out {
		if o.in != nil {
			nodes[i] = o.in.node
		}
	}
	for j, i := range objs {
		nodes[i] = parsed[j]
		f.encoded[parsed[j].YNode()] = texts[j]
	}
	return nodes, nil
}

// writeFramework writes a processed framework.ResourceList in block style:
// each generated object as f.encoded holds it, every other item and the
// functionConfig as kyaml encodes them, then the results.
func (f *Function) writeFramework(rl *framework.ResourceList) ([]byte, error) {
	for _, n := range append([]*yaml.RNode{rl.FunctionConfig}, rl.Items...) {
		if n != nil && f.encoded[n.YNode()] == nil {
			// go-yaml v3 writes an empty null in a flow collection ({d})
			// as '', an empty string: spell it (before encoding on all
			// cores: an alias may lead into another item).
			strictyaml.SpellNulls(n.YNode())
		}
	}
	texts := make([][]byte, len(rl.Items))
	errs := make([]error, len(rl.Items))
	par.Do(len(rl.Items), func(i int) {
		n := rl.Items[i].YNode()
		if t, ok := f.encoded[n]; ok {
			texts[i] = t
		} else {
			texts[i], errs[i] = encodeNode(n)
		}
	})
	if err := par.FirstError(errs); err != nil {
		return nil, err
	}
	var fc []byte
	if rl.FunctionConfig != nil {
		var err error
		if fc, err = encodeNode(rl.FunctionConfig.YNode()); err != nil {
			return nil, err
		}
	}
	return writeList(texts, fc, rl.Results)
}
