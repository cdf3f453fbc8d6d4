package fn

import (
	"bytes"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// The fast path, for very large lists: the ResourceList is split into its
// items' texts (rlist.go) instead of decoded into nodes, items are decoded
// only when the render needs them, and items passed through are written as
// they were read. For the lists kpt and kustomize write (kyaml's layout) it
// writes exactly what the framework path writes
// (TestFastPathMatchesFramework). Passing 10,000 ConfigMaps through, the
// framework path takes 1.6 times the CPU time and nearly twice the memory
// of this one, and it cannot decode 50,000 whole within the yaml-values
// limit (docs/performance.md).

// readPath chooses how a ResourceList is read.
type readPath int

const (
	autoPath      readPath = iota // the fast path for very large lists
	frameworkPath                 // kyaml's fn/framework
	fastPath                      // split into texts
)

// A ResourceList is very large with fastPathItems items or more (counted
// as the lines that start with "- ", as kyaml writes items), more than
// fastPathBytes, or when decoding it whole could make more values than
// the yaml-values limit allows (the fast path bounds each item instead).
const (
	fastPathItems = 1000
	fastPathBytes = 1 << 20
)

// veryLarge reports whether a ResourceList takes the fast path.
func veryLarge(data []byte, lim limits.Limits) bool {
	return int64(len(data)) > min(fastPathBytes, lim.KRMInputBytes/4) ||
		bytes.Count(data, []byte("\n- ")) >= fastPathItems ||
		strictyaml.MaxValues(data) > lim.YAMLValues
}

// fastOutput runs the function on the items' texts.
func (f *Function) fastOutput(data []byte, lim limits.Limits) ([]byte, error) {
	rl, err := readResourceList(data, lim)
	if err != nil {
		return nil, err
	}
	f.encoded = nil
	legacy := map[*object.Object]string{}
	fc, err := parseFunctionConfig(rl.functionConfig)
	var out []outItem
	if err == nil {
		out, err = f.process(rl.items, fc, legacy)
	}
	if err != nil {
		results := toResults(err)
		list, werr := writeFast(inputItems(rl.items), nil, rl.functionConfig, results)
		if werr != nil {
			return nil, werr
		}
		return list, results
	}
	if out == nil { // nothing to change: the input as it was
		return data, nil
	}
	return writeFast(out, legacy, rl.functionConfig, f.noteResults())
}

// writeFast writes the output items and the functionConfig as read.
func writeFast(out []outItem, legacy map[*object.Object]string, functionConfig []byte, results []*framework.Result) ([]byte, error) {
	texts, err := encodeItems(out, legacy)
	if err != nil {
		return nil, err
	}
	return writeList(texts, functionConfig, results)
}
