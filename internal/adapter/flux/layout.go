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
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Options name the Flux objects Layout creates.
type Options struct {
	// Name prefixes the Kustomizations (usually the instance name).
	Name string
	// InstanceNamespace is the instance's namespace ("" is default): with
	// Name it names common/'s Kustomization, so that instances of one name
	// in two namespaces, published to one Flux namespace, do not share it.
	InstanceNamespace string
	// Namespace of the Kustomizations; default flux-system.
	Namespace string
	// SourceKind and SourceName are the source the Kustomizations read,
	// default an OCIRepository named Name (the artifact that
	// `flux push artifact` publishes from the output folder).
	SourceKind, SourceName string
	// Interval of the Kustomizations; default DefaultInterval.
	Interval string
	// RetryInterval is how soon a step whose apply or health check failed
	// is tried again; default DefaultRetryInterval (Flux's own default is
	// Interval).
	RetryInterval string
	// Timeout bounds a step's apply and health checks; default
	// DefaultTimeout (Flux's own is Interval less 30 seconds).
	Timeout string
	// LeaveNamespace leaves the instance's namespace out of the output:
	// someone else creates it. Otherwise common/ holds it (see Layout).
	LeaveNamespace bool
}

// Defaults of the Kustomizations' timing (docs/flux.md).
const (
	DefaultInterval      = "10m"
	DefaultRetryInterval = "1m"
	DefaultTimeout       = "5m"
	// ParentTimeout bounds the wait of the Kustomization that applies
	// flux/ (the parent) for its steps: with wait: true it is Ready only
	// once every step is, and says which is not otherwise.
	ParentTimeout = "15m"
)

// Annotations of the Namespace Layout writes: Flux creates it when it is
// missing, never changes one that exists, and never deletes it (the
// PersistentVolumeClaims of a data service live in it).
const (
	AnnSSA   = "kustomize.toolkit.fluxcd.io/ssa"
	AnnPrune = "kustomize.toolkit.fluxcd.io/prune"
)

var dnsUnsafe = lazy.Regexp(`[^a-z0-9-]+`)

// Layout lays items out for Flux: one folder per plan step (the objects
// that step applies first), each with plain YAML files (named by
// output.Names) and a kustomization.yaml, and flux/ with one
// kustomize.toolkit.fluxcd.io/v1 Kustomization per folder. Each
// Kustomization waits for its objects (wait: true, within Timeout, a
// failure tried again after RetryInterval) and depends on the
// Kustomizations of the previous wave, so Flux applies the plan in order.
// A Kustomization carries the warnings of its objects
// (engine.AnnWarnings), where `kubectl describe kustomization` shows them.
//
// common/, applied before every step, holds the instance's Namespace
// (unless LeaveNamespace, or the render holds it): Flux creates it when it
// is missing (kustomize.toolkit.fluxcd.io/ssa: IfNotPresent), never
// changes one that exists, and never prunes it.
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
	groups, err := groupBySteps(withNamespace(items, opts), opts)
	if err != nil {
		return nil, err
	}
	for i, g := range groups {
		if i > 0 && g.wave != groups[i-1].wave {
			prev, cur = cur, nil
		}
		if err := g.write(out); err != nil {
			return nil, err
		}
		fk, err := yaml.Marshal(kustomization(g, prev, opts))
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
// characters (the instance first, down to minInstance characters, then
// the step part from its start, keeping the step's own name, so the steps
// of a long instance name stay apart), then 16 hex digits (64 bits)
// of a hash of the step's exact identity: the instance's namespace and
// name, the plan, phase and step. It depends on the step alone: not on
// its wave, nor on other plans or steps, so it never changes when plans or
// steps are added. It changes only when the instance (or its namespace),
// plan, phase or step is renamed. Names no search can make collide within
// reach: Layout refuses a render in which two steps share one all the
// same.
func KustomizationName(s engine.StepRef) string {
	inst, step := dnsName(s.Instance), dnsName(strings.Join([]string{s.Plan, s.Phase, s.Step}, "-"))
	if over := len(inst) + 1 + len(step) - (63 - hashLen); over > 0 && len(inst) > minInstance {
		inst = strings.TrimRight(inst[:max(minInstance, len(inst)-over)], "-")
	}
	step = tail(step, 63-hashLen-len(inst)-1)
	return hashed(inst+"-"+step, strings.Join([]string{s.Namespace, s.Instance, s.Plan, s.Phase, s.Step}, "\x00"), 63)
}

// hashLen is the length of the hash hashed appends: "-" and 16 hex digits.
const hashLen = 17

// nameHash is the hash of a step's identity in its names: 16 hex digits
// of its SHA-256 (a variable for the test of the refusal).
var nameHash = func(id string) string {
	sum := sha256.Sum256([]byte(id))
	return hex.EncodeToString(sum[:(hashLen-1)/2])
}

// tail is the end of s in at most n bytes, from the start of a word: a
// step part cut keeps the step's own name, which tells the steps of a
// plan apart ("deploy-deploy-deploy-kafka-configuration" in 21 bytes is
// "kafka-configuration").
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	t := s[len(s)-n:]
	if s[len(s)-n-1] != '-' {
		if i := strings.IndexByte(t, '-'); i >= 0 && i+1 < len(t) {
			t = t[i+1:]
		}
	}
	return strings.Trim(t, "-")
}

// minInstance is how short KustomizationName cuts an instance name before
// it cuts the step's.
const minInstance = 24

// hashed cuts name to leave room for "-" and 16 hex digits of the hash of
// id, and appends them.
func hashed(name, id string, max int) string {
	suffix := "-" + nameHash(id)
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
		o.Interval = DefaultInterval
	}
	if o.RetryInterval == "" {
		o.RetryInterval = DefaultRetryInterval
	}
	if o.Timeout == "" {
		o.Timeout = DefaultTimeout
	}
	return o
}

// withNamespace is items with the instance's Namespace first, in common/
// (wave -1, before every step), unless opts leave it out or the render
// holds it.
func withNamespace(items []engine.Item, opts Options) []engine.Item {
	if opts.LeaveNamespace {
		return items
	}
	ns := opts.InstanceNamespace
	if ns == "" {
		ns = "default" // as the engine's
	}
	for _, it := range items {
		if it.Obj.Kind() == "Namespace" && it.Obj.APIVersion() == "v1" && it.Obj.Name() == ns {
			return items
		}
	}
	obj := object.New(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns,
		"annotations": map[string]any{AnnSSA: "IfNotPresent", AnnPrune: "disabled"}}})
	return append([]engine.Item{{Obj: obj, Wave: -1}}, items...)
}

// group is the objects of one folder: one step, or common/.
type group struct {
	wave         int
	folder, name string
	objs         []*object.Object
}

// groupBySteps groups items by the step that applies them first, in wave
// order (stable). Two steps whose Kustomization names or folders are the
// same are refused: their objects would be applied together, in one wave.
func groupBySteps(items []engine.Item, opts Options) ([]*group, error) {
	bySteps := map[engine.StepRef]*group{}
	owner := map[string]engine.StepRef{} // Kustomization name or folder -> step
	var groups []*group
	for _, it := range items {
		g, ok := bySteps[it.First]
		if ok {
			g.objs = append(g.objs, it.Obj)
			continue
		}
		g = &group{wave: it.Wave, folder: "common", objs: []*object.Object{it.Obj},
			name: hashed(dnsName(opts.Name+"-common"), opts.InstanceNamespace+"\x00"+opts.Name+"\x00common", 63)}
		if f := it.First; f.Plan != "" {
			g.name = KustomizationName(f)
			g.folder = fmt.Sprintf("%02d-%s", it.Wave, hashed(dnsName(strings.Join([]string{f.Plan, f.Phase, f.Step}, "-")),
				strings.Join([]string{f.Namespace, f.Instance, f.Plan, f.Phase, f.Step}, "\x00"), 80))
		}
		for _, n := range []string{"name " + g.name, "folder " + g.folder} {
			if other, taken := owner[n]; taken {
				return nil, fmt.Errorf("flux: the steps %s and %s get the same Kustomization %s: their names differ only in characters a Kubernetes name cannot hold, or were made to collide; rename one of them in the package",
					stepString(other), stepString(it.First), n)
			}
			owner[n] = it.First
		}
		bySteps[it.First] = g
		groups = append(groups, g)
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].wave < groups[j].wave })
	return groups, nil
}

// stepString names a step for messages: namespace/instance plan/phase/step.
func stepString(s engine.StepRef) string {
	if s.Plan == "" {
		return "common/"
	}
	return fmt.Sprintf("%q", s.Namespace+"/"+s.Instance+" "+s.Plan+"/"+s.Phase+"/"+s.Step)
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
func kustomization(g *group, dependsOn []string, opts Options) map[string]any {
	spec := map[string]any{
		"interval":      opts.Interval,
		"retryInterval": opts.RetryInterval,
		"timeout":       opts.Timeout,
		"path":          "./" + g.folder,
		"prune":         true,
		"wait":          true,
		"sourceRef":     map[string]any{"kind": opts.SourceKind, "name": opts.SourceName},
	}
	if len(dependsOn) > 0 {
		var deps []any
		for _, d := range dependsOn {
			deps = append(deps, map[string]any{"name": d})
		}
		spec["dependsOn"] = deps
	}
	md := map[string]any{"name": g.name, "namespace": opts.Namespace}
	if w := g.warnings(); w != "" {
		md["annotations"] = map[string]any{engine.AnnWarnings: w}
	}
	return map[string]any{
		"apiVersion": "kustomize.toolkit.fluxcd.io/v1",
		"kind":       "Kustomization",
		"metadata":   md,
		"spec":       spec,
	}
}

// warnings are the warnings the objects of a group carry, each once,
// with the objects it is on (engine.WarningsText bounds them); "" when
// there are none.
func (g *group) warnings() string {
	var lines []string
	on := map[string][]string{}
	for _, o := range g.objs {
		text := o.String("metadata", "annotations", engine.AnnWarnings)
		for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if l == "" {
				continue
			}
			if _, ok := on[l]; !ok {
				lines = append(lines, l)
			}
			who := o.Kind() + " " + o.Name()
			if ns := o.Namespace(); ns != "" {
				who = o.Kind() + " " + ns + "/" + o.Name()
			}
			on[l] = append(on[l], who)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	for i, l := range lines {
		objs := on[l]
		where := strings.Join(objs[:min(len(objs), 3)], ", ")
		if len(objs) > 3 {
			where += fmt.Sprintf(" and %d more", len(objs)-3)
		}
		lines[i] = where + ": " + l
	}
	return engine.WarningsText(lines)
}

func dnsName(s string) string {
	s = strings.Trim(dnsUnsafe().ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s
}
