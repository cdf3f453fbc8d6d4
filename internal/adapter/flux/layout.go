package flux

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/yaml/lazy"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Options name the Flux objects Layout creates.
type Options struct {
	// Name prefixes the Kustomizations (usually the instance name).
	Name string
	// Namespace of the Kustomizations; default flux-system.
	Namespace string
	// SourceKind and SourceName are the source the Kustomizations read,
	// default an OCIRepository named Name (the artifact that
	// `flux push artifact` publishes from the output folder).
	SourceKind, SourceName string
	// Interval of the Kustomizations; default 10m.
	Interval string
}

var dnsUnsafe = lazy.Regexp(`[^a-z0-9-]+`)

// Layout lays items out for Flux: one folder per plan step (the objects
// that step applies first), each with plain YAML files (named by
// output.Names) and a kustomization.yaml, and flux/ with one
// kustomize.toolkit.fluxcd.io/v1 Kustomization per folder. Each
// Kustomization waits for its objects (wait: true) and depends on the
// Kustomizations of the previous wave, so Flux applies the plan in order.
//
// A Kustomization's name identifies its step, never its position: see
// [KustomizationName]. Adding a plan or a step renames nothing that
// exists; folders are named by wave and step, so a folder may move (its
// Kustomization's path changes, Flux keeps the objects). It returns file
// path -> content.
func Layout(items []engine.Item, opts Options) (map[string][]byte, error) {
	opts = opts.withDefaults()
	out := map[string][]byte{}
	var prev, cur, fluxFiles []string // Kustomizations of the previous and current wave
	groups := groupBySteps(items, opts)
	for i, g := range groups {
		if i > 0 && g.wave != groups[i-1].wave {
			prev, cur = cur, nil
		}
		if err := g.write(out); err != nil {
			return nil, err
		}
		fk, err := yaml.Marshal(kustomization(g.name, g.folder, prev, opts))
		if err != nil {
			return nil, err
		}
		out[path.Join("flux", g.name+".yaml")] = fk
		cur = append(cur, g.name)
		fluxFiles = append(fluxFiles, g.name+".yaml")
	}
	sort.Strings(fluxFiles)
	kdata, err := yaml.Marshal(map[string]any{
		"apiVersion": "kustomize.config.k8s.io/v1beta1",
		"kind":       "Kustomization",
		"resources":  fluxFiles,
	})
	if err != nil {
		return nil, err
	}
	out["flux/kustomization.yaml"] = kdata
	return out, nil
}

// KustomizationName is the name of the Kustomization of a step: the
// instance, plan, phase and step, lower-cased, every other character
// than a-z, 0-9 and '-' replaced by '-', cut to fit Kubernetes' 63
// characters (the instance first, down to minInstance characters, so the
// steps of a long instance name stay apart), then a hash of the step's
// exact identity. It depends on the step alone: not on its wave, nor on
// other plans or steps, so it never changes when plans or steps are
// added, and two steps never share one. It changes only when the
// instance, plan, phase or step is renamed.
func KustomizationName(s engine.StepRef) string {
	const hashLen = 9 // "-" and 8 hex digits
	inst, step := dnsName(s.Instance), dnsName(strings.Join([]string{s.Plan, s.Phase, s.Step}, "-"))
	if over := len(inst) + 1 + len(step) - (63 - hashLen); over > 0 && len(inst) > minInstance {
		inst = strings.TrimRight(inst[:max(minInstance, len(inst)-over)], "-")
	}
	return hashed(inst+"-"+step, strings.Join([]string{s.Instance, s.Plan, s.Phase, s.Step}, "\x00"), 63)
}

// minInstance is how short KustomizationName cuts an instance name before
// it cuts the step's.
const minInstance = 24

// hashed cuts name to leave room for "-" and 8 hex digits of the hash of
// id, and appends them.
func hashed(name, id string, max int) string {
	sum := sha256.Sum256([]byte(id))
	suffix := "-" + hex.EncodeToString(sum[:4])
	if len(name) > max-len(suffix) {
		name = strings.TrimRight(name[:max-len(suffix)], "-")
	}
	return name + suffix
}

func (o Options) withDefaults() Options {
	if o.Namespace == "" {
		o.Namespace = "flux-system"
	}
	if o.SourceKind == "" {
		o.SourceKind = "OCIRepository"
	}
	if o.SourceName == "" {
		o.SourceName = o.Name
	}
	if o.Interval == "" {
		o.Interval = "10m"
	}
	return o
}

// group is the objects of one folder: one step, or common/.
type group struct {
	wave         int
	folder, name string
	objs         []*object.Object
}

// groupBySteps groups items by the step that applies them first, in wave
// order (stable).
func groupBySteps(items []engine.Item, opts Options) []*group {
	byName := map[string]*group{}
	var groups []*group
	for _, it := range items {
		name, folder := hashed(dnsName(opts.Name+"-common"), opts.Name+"\x00common", 63), "common"
		if it.First.Plan != "" {
			name = KustomizationName(it.First)
			f := it.First
			folder = fmt.Sprintf("%02d-%s", it.Wave, hashed(dnsName(strings.Join([]string{f.Plan, f.Phase, f.Step}, "-")),
				strings.Join([]string{f.Instance, f.Plan, f.Phase, f.Step}, "\x00"), 80))
		}
		g, ok := byName[name]
		if !ok {
			g = &group{wave: it.Wave, folder: folder, name: name}
			byName[name] = g
			groups = append(groups, g)
		}
		g.objs = append(g.objs, it.Obj)
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].wave < groups[j].wave })
	return groups
}

// write adds the group's files and its kustomization.yaml to out.
func (g *group) write(out map[string][]byte) error {
	names := output.Names(g.objs)
	for i, o := range g.objs {
		data, err := o.Marshal()
		if err != nil {
			return err
		}
		out[path.Join(g.folder, names[i])] = data
	}
	sort.Strings(names)
	kdata, err := yaml.Marshal(map[string]any{
		"apiVersion": "kustomize.config.k8s.io/v1beta1",
		"kind":       "Kustomization",
		"resources":  names,
	})
	if err != nil {
		return err
	}
	out[path.Join(g.folder, "kustomization.yaml")] = kdata
	return nil
}

// kustomization is the Flux Kustomization of one folder.
func kustomization(name, folder string, dependsOn []string, opts Options) map[string]any {
	spec := map[string]any{
		"interval":  opts.Interval,
		"path":      "./" + folder,
		"prune":     true,
		"wait":      true,
		"sourceRef": map[string]any{"kind": opts.SourceKind, "name": opts.SourceName},
	}
	if len(dependsOn) > 0 {
		var deps []any
		for _, d := range dependsOn {
			deps = append(deps, map[string]any{"name": d})
		}
		spec["dependsOn"] = deps
	}
	return map[string]any{
		"apiVersion": "kustomize.toolkit.fluxcd.io/v1",
		"kind":       "Kustomization",
		"metadata":   map[string]any{"name": name, "namespace": opts.Namespace},
		"spec":       spec,
	}
}

func dnsName(s string) string {
	s = strings.Trim(dnsUnsafe().ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s
}
