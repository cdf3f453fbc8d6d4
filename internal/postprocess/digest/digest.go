package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Annotations written by this package.
const (
	AnnResourceVersion = "kudorender.dev/resource-version"
	AnnProcessedBy     = "kudorender.dev/processed-by"
)

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(h[:])
}

// Object is the resource version of an object: the SHA-256 of its
// canonical JSON without this package's annotations.
func Object(o *object.Object) (string, error) {
	// Only the maps on the way to the annotations are copied, and only
	// when they change (this package's are dropped, and empty annotations
	// are no annotations): encoding reads the rest.
	c := o.Map
	if ann := o.MapAt("metadata", "annotations"); ann != nil && (len(ann) == 0 || hasKey(ann, AnnResourceVersion) || hasKey(ann, AnnProcessedBy)) {
		ann = maps.Clone(ann)
		delete(ann, AnnResourceVersion)
		delete(ann, AnnProcessedBy)
		md := maps.Clone(o.MapAt("metadata"))
		if len(ann) == 0 {
			delete(md, "annotations")
		} else {
			md["annotations"] = ann
		}
		c = maps.Clone(o.Map)
		c["metadata"] = md
	}
	buf := jsonBuffers.Get().(*[]byte)
	defer jsonBuffers.Put(buf)
	data, ok := object.AppendJSON((*buf)[:0], c) // encoding/json's bytes: sorted keys
	if ok {
		*buf = data
	} else {
		var err error
		if data, err = json.Marshal(c); err != nil {
			return "", fmt.Errorf("cannot digest %s %q: %w", o.Kind(), o.Name(), err)
		}
	}
	return sum(data), nil
}

// jsonBuffers hold the JSON of an object while it is digested.
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// Marker is the processed-by value of an object: <framework>@<version>
// of the package that rendered it, then its resource version. It changes
// only when the object does (or the package's name or version): a
// parameter that changes one object of a render leaves the others' alone.
func Marker(bundleID, resourceVersion string) string {
	return bundleID + "/" + resourceVersion
}

// Annotate writes the resource version and the processed-by marker on
// every object; bundleID is framework@version of the package that
// rendered them.
func Annotate(objs []*object.Object, bundleID string) error {
	for _, o := range objs {
		rv, err := Object(o)
		if err != nil {
			return err
		}
		object.SetStrings(o.Map, map[string]string{AnnResourceVersion: rv, AnnProcessedBy: Marker(bundleID, rv)}, "metadata", "annotations")
	}
	return nil
}

// Key names an object in spec.expectedResourceVersions: Kind/namespace/name,
// or Kind/name for objects without a namespace.
func Key(o *object.Object) string {
	if ns := o.Namespace(); ns != "" {
		return o.Kind() + "/" + ns + "/" + o.Name()
	}
	return o.Kind() + "/" + o.Name()
}

// MismatchError lists pinned resource versions that the render does not
// reproduce, each "<Key>: <what differs>".
type MismatchError struct {
	Mismatches []string
}

// Diagnostics implements diag.Carrier: one per mismatch, about its object
// (the pin is spec.expectedResourceVersions of the FunctionConfig).
func (e *MismatchError) Diagnostics() []*diag.Diagnostic {
	out := make([]*diag.Diagnostic, len(e.Mismatches))
	for i, m := range e.Mismatches {
		key, msg, _ := strings.Cut(m, ": ")
		d := &diag.Diagnostic{Msg: msg + " (spec.expectedResourceVersions)"}
		switch parts := strings.Split(key, "/"); len(parts) {
		case 2:
			d.Resource = &diag.Resource{Kind: parts[0], Name: parts[1]}
		case 3:
			d.Resource = &diag.Resource{Kind: parts[0], Namespace: parts[1], Name: parts[2]}
		default:
			d.Msg = m
		}
		out[i] = d
	}
	return out
}

func (e *MismatchError) Error() string {
	return "the output changed without its pinned resource versions being updated (spec.expectedResourceVersions; run kudo-render lock --pin-output to accept it):\n  " +
		strings.Join(e.Mismatches, "\n  ")
}

// Check compares the objects' resource versions with the pins. Every pin
// must name an object of the output and match its version.
func Check(objs []*object.Object, expected map[string]string) error {
	if len(expected) == 0 {
		return nil
	}
	got := map[string]string{}
	for _, o := range objs {
		got[Key(o)] = o.String("metadata", "annotations", AnnResourceVersion)
	}
	var bad []string
	for _, k := range slices.Sorted(maps.Keys(expected)) {
		switch v, ok := got[k]; {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s: pinned but not in the output", k))
		case v != expected[k]:
			bad = append(bad, fmt.Sprintf("%s: resource version is %s, pinned %s", k, v, expected[k]))
		}
	}
	if len(bad) > 0 {
		return &MismatchError{Mismatches: bad}
	}
	return nil
}

// Versions lists the resource versions of objs by Key, for pinning.
func Versions(objs []*object.Object) map[string]string {
	out := map[string]string{}
	for _, o := range objs {
		out[Key(o)] = o.String("metadata", "annotations", AnnResourceVersion)
	}
	return out
}
