package differential

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/kube/kinds"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
)

// A Seed is a valid object the cases are made from.
type Seed struct {
	// Name says where it comes from: "kinds.yaml", "corpus/kafka".
	Name string
	Obj  map[string]any
}

// GVK is the seed's group, version and kind.
func (s Seed) GVK() schema.GroupVersionKind {
	gv, _ := schema.ParseGroupVersion(fmt.Sprint(s.Obj["apiVersion"]))
	return gv.WithKind(fmt.Sprint(s.Obj["kind"]))
}

func (s Seed) String() string {
	md, _ := s.Obj["metadata"].(map[string]any)
	return fmt.Sprintf("%s: %s %s %v", s.Name, s.Obj["apiVersion"], s.Obj["kind"], md["name"])
}

// ParseSeeds reads the objects of a YAML stream named name as seeds, each
// of a kind Kubernetes serves (validate.ServedKinds) but for
// CustomResourceDefinitions (applied for real by the server's tests, and
// custom resources' own differential test's): other objects are left
// out. Namespaced objects go to namespace; cluster-scoped ones get
// none.
func ParseSeeds(name string, stream []byte, namespace string) ([]Seed, error) {
	served := map[schema.GroupVersionKind]bool{}
	for _, k := range validate.ServedKinds() {
		served[k] = true
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(stream)))
	var out []Seed
	for {
		doc, err := r.Read()
		if err != nil {
			if err == io.EOF {
				return out, nil
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		s := Seed{Name: name, Obj: obj}
		gvk := s.GVK()
		if obj == nil || !served[gvk] || gvk.Group == "apiextensions.k8s.io" {
			continue
		}
		md, _ := obj["metadata"].(map[string]any)
		if md == nil {
			md = map[string]any{}
			obj["metadata"] = md
		}
		if k, ok := kinds.Lookup(gvk.Group, gvk.Kind); ok && !k.Namespaced {
			delete(md, "namespace")
		} else {
			md["namespace"] = namespace
		}
		out = append(out, s)
	}
}

// Cases are a seed itself and its mutations, sch its kind's schema. The
// mutations' documents are made when Sample picks them (Doc is nil until
// then).
func Cases(s Seed, sch *Schema) []Case {
	gvk := s.GVK()
	kind := strings.TrimPrefix(gvk.GroupVersion().String()+" "+gvk.Kind, "/")
	out := []Case{{Seed: s.String(), Kind: kind, Op: "seed", Doc: document(s.Obj)}}
	for _, m := range mutations(s.Obj, sch) {
		out = append(out, Case{Seed: s.String(), Kind: kind, Op: m.op, Mutation: m.desc, make: m.make})
	}
	return out
}

// document is the case's YAML document, made now if need be.
func (c *Case) document() []byte {
	if c.Doc == nil && c.make != nil {
		obj, text := c.make()
		c.Doc = append(document(obj), text...)
	}
	return c.Doc
}

// document writes an object as YAML.
func document(obj map[string]any) []byte {
	out, err := yaml.Marshal(obj)
	if err != nil {
		panic(err) // values decoded from YAML or JSON
	}
	return out
}

// Sample picks n cases (all when n is 0 or more than there are), without
// two of the same document: every seed first, then the mutations spread
// over kinds and classes of mutation, in turns (each turn visiting the
// groups in an order drawn from a random source of seed, each group's
// cases in an order drawn from it). The same cases and seed give the
// same sample, in the order of cases, with their documents made.
func Sample(cases []Case, n int, seed uint64) []Case {
	seen := map[[32]byte]bool{}
	var picked []int
	pick := func(i int) bool {
		h := sha256.Sum256(cases[i].document())
		if seen[h] {
			return false
		}
		seen[h] = true
		picked = append(picked, i)
		return true
	}
	groups := map[string][]int{}
	for i, c := range cases {
		if c.Op == "seed" {
			pick(i)
			continue
		}
		key := c.Kind + "\x00" + c.Op
		groups[key] = append(groups[key], i)
	}
	rnd := rand.New(rand.NewPCG(seed, 0xd1ff))
	keys := sortedKeys(groups)
	for _, k := range keys {
		g := groups[k]
		rnd.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
	}
	full := func() bool { return n > 0 && len(picked) >= n }
	for turn := 0; !full(); turn++ {
		took := false
		// each turn in its own order: a sample smaller than the groups
		// is not the first groups in sorted order
		rnd.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		for _, k := range keys {
			if turn < len(groups[k]) && !full() {
				pick(groups[k][turn])
				took = true
			}
		}
		if !took {
			break
		}
	}
	slices.Sort(picked)
	out := make([]Case, len(picked))
	for i, p := range picked {
		out[i] = cases[p]
	}
	return out
}

// Count is a number of cases by some key, for the test's summary.
type Count struct {
	Key string
	N   int
}

// CountBy counts results by key, most first.
func CountBy(results []Result, key func(Result) string) []Count {
	m := map[string]int{}
	for _, r := range results {
		m[key(r)]++
	}
	var out []Count
	for _, k := range sortedKeys(m) {
		out = append(out, Count{k, m[k]})
	}
	slices.SortStableFunc(out, func(a, b Count) int { return cmp.Compare(b.N, a.N) })
	return out
}
