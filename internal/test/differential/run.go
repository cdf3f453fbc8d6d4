package differential

import (
	"context"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// A Case is one object to give both kudo-render and the API server.
type Case struct {
	// Seed names the object the case was made from: "corpus/kafka
	// deploy: apps/v1 StatefulSet inst-kafka".
	Seed string
	// Kind is the object's "apiVersion kind".
	Kind string
	// Op is the class of mutation (delete, type, enum, ...; seed for the
	// seed itself): the cases sampled are spread over kinds and ops.
	Op string
	// Mutation says what was changed: "delete spec.replicas"; "" for the
	// seed itself.
	Mutation string
	// Doc is the YAML document; nil until made (see Sample).
	Doc []byte
	// make makes the mutated object and the text added to its document.
	make func() (map[string]any, []byte)
}

// A Result is both verdicts on a case.
type Result struct {
	Case
	// Ours and Theirs are kudo-render's and the server's refusals, ""
	// when they accept.
	Ours, Theirs string
	// Class is set on a disagreement that is no bug: see Classify.
	Class *Class
}

// Agrees reports whether both refuse or both accept.
func (r Result) Agrees() bool { return (r.Ours == "") == (r.Theirs == "") }

// Judge gives a case to kudo-render and to the server: the server gets
// what kudo-render would emit (normalized, converted), or the document as
// written when kudo-render cannot decode it.
func Judge(ctx context.Context, srv *kubetest.Server, c Case) (Result, error) {
	c.document()
	r := Result{Case: c}
	emit, ours := oursOf(c.Doc)
	r.Ours = ours
	var results []kubetest.Result
	var err error
	if emit == nil {
		results, err = srv.ApplyYAML(ctx, c.Doc)
	} else {
		results, err = srv.Apply(ctx, emit)
	}
	if err != nil {
		return r, err
	}
	var theirs []string
	for _, res := range results {
		if !res.Accepted() {
			theirs = append(theirs, res.String())
		}
	}
	r.Theirs = strings.Join(theirs, "; ")
	if !r.Agrees() {
		r.Class = Classify(docKind(c.Doc), r.Ours, r.Theirs)
	}
	return r, nil
}

// oursOf is kudo-render's verdict (Ours; a test gives another).
var oursOf = Ours

// docKind is the group, version and kind of a document.
func docKind(doc []byte) schema.GroupVersionKind {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	_ = yaml.Unmarshal(doc, &head)
	gv, _ := schema.ParseGroupVersion(head.APIVersion)
	return gv.WithKind(head.Kind)
}

// Run judges every case, workers at a time, and returns the results in
// the order of cases. The error is the first that is no case's verdict (a
// namespace that cannot be made, the server gone).
func Run(ctx context.Context, srv *kubetest.Server, cases []Case, workers int) ([]Result, error) {
	out := make([]Result, len(cases))
	errs := make([]error, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range next {
				out[i], errs[i] = Judge(ctx, srv, cases[i])
			}
		})
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return out, err
		}
	}
	return out, ctx.Err()
}
