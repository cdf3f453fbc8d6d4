package gitops

import (
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/object"
)

// FluxOptions name the Flux objects WriteFlux creates.
type FluxOptions struct {
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

var dnsUnsafe = regexp.MustCompile(`[^a-z0-9-]+`)

// WriteFlux lays items out for Flux: one folder per step (objects of one
// wave and plan step), each with plain YAML files and a
// kustomization.yaml, and flux/ with one kustomize.toolkit.fluxcd.io/v1
// Kustomization per folder. Each Kustomization waits for its objects
// (wait: true) and depends on the Kustomizations of the previous wave, so
// Flux applies the plan in order. It returns file path -> content.
func WriteFlux(items []Item, opts FluxOptions) (map[string][]byte, error) {
	if opts.Namespace == "" {
		opts.Namespace = "flux-system"
	}
	if opts.SourceKind == "" {
		opts.SourceKind = "OCIRepository"
	}
	if opts.SourceName == "" {
		opts.SourceName = opts.Name
	}
	if opts.Interval == "" {
		opts.Interval = "10m"
	}
	type group struct {
		wave   int
		folder string
		files  []string
	}
	groups := map[string]*group{}
	var order []string
	out := map[string][]byte{}
	for _, it := range items {
		folder := stepFolder(it)
		g, ok := groups[folder]
		if !ok {
			g = &group{wave: it.Wave, folder: folder}
			groups[folder] = g
			order = append(order, folder)
		}
		data, err := it.Obj.Marshal()
		if err != nil {
			return nil, err
		}
		file := fileFor(it.Obj)
		for n := 2; out[path.Join(folder, file)] != nil; n++ {
			file = strings.TrimSuffix(fileFor(it.Obj), ".yaml") + fmt.Sprintf("-%d.yaml", n)
		}
		out[path.Join(folder, file)] = data
		g.files = append(g.files, file)
	}
	sort.SliceStable(order, func(i, j int) bool { return groups[order[i]].wave < groups[order[j]].wave })

	var prev []string // Kustomizations of the previous wave
	var cur, fluxFiles []string
	lastWave := 0
	for i, folder := range order {
		g := groups[folder]
		if i == 0 || g.wave != lastWave {
			if i > 0 {
				prev = cur
			}
			cur = nil
			lastWave = g.wave
		}
		sort.Strings(g.files)
		kdata, err := yaml.Marshal(map[string]any{
			"apiVersion": "kustomize.config.k8s.io/v1beta1",
			"kind":       "Kustomization",
			"resources":  g.files,
		})
		if err != nil {
			return nil, err
		}
		out[path.Join(folder, "kustomization.yaml")] = kdata

		name := dnsName(opts.Name + "-" + folder)
		spec := map[string]any{
			"interval":  opts.Interval,
			"path":      "./" + folder,
			"prune":     true,
			"wait":      true,
			"sourceRef": map[string]any{"kind": opts.SourceKind, "name": opts.SourceName},
		}
		if len(prev) > 0 {
			var deps []any
			for _, d := range prev {
				deps = append(deps, map[string]any{"name": d})
			}
			spec["dependsOn"] = deps
		}
		fk, err := yaml.Marshal(map[string]any{
			"apiVersion": "kustomize.toolkit.fluxcd.io/v1",
			"kind":       "Kustomization",
			"metadata":   map[string]any{"name": name, "namespace": opts.Namespace},
			"spec":       spec,
		})
		if err != nil {
			return nil, err
		}
		out[path.Join("flux", name+".yaml")] = fk
		cur = append(cur, name)
		fluxFiles = append(fluxFiles, name+".yaml")
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

// stepFolder names the folder of an item: its wave and plan step, or
// "common" for the framework's shared manifests.
func stepFolder(it Item) string {
	ann := it.Obj.MapAt("metadata", "annotations")
	plan, _ := ann["kudo.dev/plan"].(string)
	if plan == "" {
		return "common"
	}
	phase, _ := ann["kudo.dev/phase"].(string)
	step, _ := ann["kudo.dev/step"].(string)
	return fmt.Sprintf("%02d-%s", it.Wave, dnsName(strings.Join([]string{plan, phase, step}, "-")))
}

func fileFor(o *object.Object) string {
	return dnsName(strings.ToLower(o.Kind())+"-"+o.Name()) + ".yaml"
}

func dnsName(s string) string {
	s = strings.Trim(dnsUnsafe.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s
}
