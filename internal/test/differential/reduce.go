package differential

import (
	"context"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// Reduce makes a disagreement's object as small as it can while it still
// disagrees the same way (kudo-render accepts and the server refuses, or
// the reverse, unclassified): it deletes the largest parts first, and
// every field but those naming the object, asking both at most tries
// times. The result is a reproducer with both messages; a document that
// an object cannot hold (a key written twice) is returned as it is.
func Reduce(ctx context.Context, srv *kubetest.Server, r Result, tries int) (Result, error) {
	var obj map[string]any
	if err := yaml.Unmarshal(r.Doc, &obj); err != nil || obj == nil || !sameDoc(obj, r.Doc) {
		return r, nil
	}
	oursAccepts := r.Ours == ""
	best := r
	failed := map[string]bool{} // paths whose deletion lost the disagreement
	for tries > 0 {
		progressed := false
		for _, n := range walk(obj) {
			if fixed(n.at) || failed[n.at.String()] || tries == 0 {
				continue
			}
			cand := with(obj, n.at, nil, true)
			tries--
			res, err := Judge(ctx, srv, Case{Seed: r.Seed, Kind: r.Kind, Op: r.Op, Mutation: r.Mutation, Doc: document(cand)})
			if err != nil {
				return best, err
			}
			if res.Agrees() || (res.Ours == "") != oursAccepts || res.Class != nil {
				failed[n.at.String()] = true
				continue
			}
			obj, best, progressed = cand, res, true
			break // paths below have moved: walk again
		}
		if !progressed {
			break
		}
	}
	return best, nil
}

// sameDoc reports whether obj written again is doc: false for a document
// YAML reads otherwise than written (a key twice).
func sameDoc(obj map[string]any, doc []byte) bool {
	return string(document(obj)) == string(doc)
}
