package render

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Pipe renders a Pipe task. KUDO ran the task's pod, copied the files its
// init container wrote and stored them as Secrets or ConfigMaps. Offline,
// the pod becomes a run-once Job: the package's init container runs
// unchanged, then a publisher container stores each file under the name
// .Pipes gives it. The Job comes with the ServiceAccount, Role and
// RoleBinding it needs.
func (r *Renderer) Pipe(s Step, t *bundle.Task) ([]Rendered, error) {
	src, ok := r.b.Templates[t.Pod]
	if !ok {
		return nil, r.fail(s, fmt.Errorf("pipe pod template %q is not in templates/", t.Pod))
	}
	tpath := bundle.TemplatePath(t.Pod)
	vars, err := r.vars(s)
	if err != nil {
		return nil, r.fail(s, err)
	}
	objs, err := r.execute(tpath, src, vars)
	if err != nil {
		return nil, r.fail(s, err)
	}
	if len(objs) != 1 || objs[0].Obj.Kind() != "Pod" {
		return nil, r.fail(s, fmt.Errorf("%s: a pipe pod template must render exactly one Pod", tpath))
	}
	pod := objs[0].Obj
	mount, err := checkPipePod(pod, t)
	if err != nil {
		return nil, r.fail(s, fmt.Errorf("%s: %w", tpath, err))
	}
	sa := r.publisherName()
	job := r.pipeJob(s, t, pod, mount, sa)
	out := []Rendered{{Template: tpath, Obj: job, Hook: true}}
	for _, o := range r.publisherRBAC(sa) {
		out = append(out, Rendered{Template: tpath, Obj: o})
	}
	return out, nil
}

type pipeMount struct {
	volume, path string
}

// checkPipePod applies KUDO's rules for pipe pods and returns the shared
// volume mount.
func checkPipePod(pod *object.Object, t *bundle.Task) (pipeMount, error) {
	spec := pod.MapAt("spec")
	if spec == nil {
		return pipeMount{}, errors.New("pipe pod has no spec")
	}
	if c, _ := spec["containers"].([]any); len(c) > 0 {
		return pipeMount{}, errors.New("pipe pod should not have containers: pipe artifacts are generated in the init container")
	}
	inits, _ := spec["initContainers"].([]any)
	if len(inits) != 1 {
		return pipeMount{}, errors.New("pipe pod should define one init container that generates the artifacts")
	}
	if rp, _ := spec["restartPolicy"].(string); rp != "" && rp != "OnFailure" {
		return pipeMount{}, errors.New("pipe pod restartPolicy should be OnFailure")
	}
	var emptyDirs []string
	vols, _ := spec["volumes"].([]any)
	for _, v := range vols {
		vm, _ := v.(map[string]any)
		if _, ok := vm["emptyDir"]; ok {
			name, _ := vm["name"].(string)
			emptyDirs = append(emptyDirs, name)
		}
	}
	if len(emptyDirs) != 1 {
		return pipeMount{}, errors.New("pipe pod should define one emptyDir shared volume where the artifacts are temporarily stored")
	}
	init, _ := inits[0].(map[string]any)
	mounts, _ := init["volumeMounts"].([]any)
	m := pipeMount{volume: emptyDirs[0]}
	for _, x := range mounts {
		xm, _ := x.(map[string]any)
		if xm["name"] == m.volume {
			m.path, _ = xm["mountPath"].(string)
		}
	}
	if m.path == "" {
		return pipeMount{}, fmt.Errorf("pipe pod should save generated artifacts in volume %q", m.volume)
	}
	for _, pf := range t.Pipe {
		rel := strings.TrimPrefix(path.Clean(pf.File), path.Clean(m.path)+"/")
		if rel == path.Clean(pf.File) || rel == "" || strings.HasPrefix(rel, "..") {
			return pipeMount{}, fmt.Errorf("pipe file %s should be a child of the %s mount path", pf.File, m.path)
		}
	}
	return m, nil
}

var dnsLabelUnsafe = lazy.Regexp(`[^a-z0-9-]+`)

// dnsLabel makes a DNS-1123 label of at most 63 characters from parts,
// shortened with a hash suffix when needed.
func dnsLabel(parts ...string) string {
	s := strings.Trim(dnsLabelUnsafe().ReplaceAllString(strings.ToLower(strings.Join(parts, "-")), "-"), "-")
	if len(s) <= 63 {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	return strings.TrimRight(s[:54], "-") + "-" + hex.EncodeToString(sum[:])[:8]
}

func (r *Renderer) publisherName() string { return dnsLabel(r.inst.Name, "pipe-publisher") }

func (r *Renderer) pipeJob(s Step, t *bundle.Task, pod *object.Object, m pipeMount, sa string) *object.Object {
	spec := maps.Clone(pod.MapAt("spec"))
	delete(spec, "containers")
	spec["restartPolicy"] = "OnFailure"
	spec["serviceAccountName"] = sa
	spec["containers"] = []any{map[string]any{
		"name":         "publish",
		"image":        r.opts.PublisherImage,
		"command":      []any{"/bin/sh", "-c", r.publishScript(s, t)},
		"volumeMounts": []any{map[string]any{"name": m.volume, "mountPath": m.path}},
	}}
	tmplMeta := map[string]any{}
	if pm := pod.MapAt("metadata"); pm != nil {
		for _, k := range []string{"labels", "annotations"} {
			if v, ok := pm[k]; ok {
				tmplMeta[k] = v
			}
		}
	}
	return object.New(map[string]any{
		"apiVersion": "batch/v1",
		"kind":       "Job",
		"metadata":   map[string]any{"name": dnsLabel(r.inst.Name, t.Name, "pipe")},
		"spec": map[string]any{
			"backoffLimit": int64(4),
			"template":     map[string]any{"metadata": tmplMeta, "spec": spec},
		},
	})
}

// publishScript stores every pipe file as a Secret or ConfigMap named as
// .Pipes names it, labelled like every object of the instance.
func (r *Renderer) publishScript(s Step, t *bundle.Task) string {
	var b strings.Builder
	b.WriteString("set -eu\n")
	labels := fmt.Sprintf("heritage=kudo kudo.dev/operator=%s kudo.dev/instance=%s", shq(r.b.Name), shq(r.inst.Name))
	files := slices.Clone(t.Pipe)
	for _, pf := range files {
		kind := "secret generic"
		if pf.Kind == "ConfigMap" {
			kind = "configmap"
		}
		fmt.Fprintf(&b, "kubectl create %s %s --namespace %s --from-file=%s --dry-run=client -o yaml | kubectl label --local -f - -o yaml %s | kubectl apply --server-side --force-conflicts --field-manager=kudo-render-pipe -f -\n",
			kind, shq(s.Pipes[pf.Key]), shq(r.inst.Namespace), shq(path.Base(pf.File)+"="+pf.File), labels)
	}
	return b.String()
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (r *Renderer) publisherRBAC(name string) []*object.Object {
	meta := func() map[string]any { return map[string]any{"name": name} }
	return []*object.Object{
		object.New(map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": meta()}),
		object.New(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "Role", "metadata": meta(),
			"rules": []any{map[string]any{
				"apiGroups": []any{""},
				"resources": []any{"secrets", "configmaps"},
				"verbs":     []any{"get", "create", "patch", "update"},
			}},
		}),
		object.New(map[string]any{
			"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding", "metadata": meta(),
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": name},
			"subjects": []any{map[string]any{"kind": "ServiceAccount", "name": name, "namespace": r.inst.Namespace}},
		}),
	}
}
