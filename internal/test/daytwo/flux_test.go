package daytwo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fluxcd/cli-utils/pkg/kstatus/polling"
	kustomizev1 "github.com/fluxcd/kustomize-controller/api/v1"
	"github.com/fluxcd/pkg/ssa"
	ssaerrors "github.com/fluxcd/pkg/ssa/errors"
	"github.com/fluxcd/pkg/ssa/normalize"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// fluxManager is kustomize-controller's field manager.
const fluxManager = "kustomize-controller"

// flux reconciles the Kustomizations of a render's flux/ folder the way
// Flux's kustomize-controller does (internal/controller/
// kustomization_controller.go): in dependsOn order, each path built by
// kustomize and applied by fluxcd/pkg/ssa's ResourceManager.ApplyAllStaged
// with the controller's options (the force annotation recreates an object
// whose update is refused; reconcile: disabled and ssa: IfNotPresent
// honoured), then what the Kustomization applied before and no longer
// holds deleted (prune). Health checks are not waited for: no pod runs.
type flux struct {
	rm *ssa.ResourceManager
	// inventory is what each Kustomization applied last.
	inventory map[string][]*unstructured.Unstructured
}

func newFlux(srv *kubetest.Server) (*flux, error) {
	c, err := client.New(srv.Config, client.Options{})
	if err != nil {
		return nil, err
	}
	// the poller waits for namespaces, definitions and classes applied
	// before the objects that need them
	poller := polling.NewStatusPoller(c, c.RESTMapper(), polling.Options{})
	rm := ssa.NewResourceManager(c, poller, ssa.Owner{Field: fluxManager, Group: kustomizev1.GroupVersion.Group})
	return &flux{rm: rm, inventory: map[string][]*unstructured.Unstructured{}}, nil
}

// reconcile applies the Kustomizations of the render in dir (its flux/
// folder), in dependsOn order; it stops at the first that fails, as its
// dependents wait for it.
func (f *flux) reconcile(ctx context.Context, dir string) ([]outcome, error) {
	kss, err := kustomizations(dir)
	if err != nil {
		return nil, err
	}
	var out []outcome
	current := map[string]bool{}
	for _, ks := range kss {
		current[ks.Name] = true
		res, err := f.reconcileOne(ctx, dir, ks)
		out = append(out, res...)
		if err != nil {
			return out, fmt.Errorf("Kustomization %s: %w", ks.Name, err)
		}
	}
	// A Kustomization the render no longer has is deleted by its parent
	// (prune: true); its finalizer prunes what it applied.
	for name, objs := range f.inventory {
		if current[name] {
			continue
		}
		gone := kustomizev1.Kustomization{}
		gone.Name, gone.Namespace, gone.Spec.Prune = name, "flux-system", true
		f.inventory[name] = nil
		res, err := f.deleteAll(ctx, gone, objs)
		out = append(out, res...)
		if err != nil {
			return out, err
		}
		delete(f.inventory, name)
	}
	return out, nil
}

// reconcileOne builds, applies and prunes one Kustomization.
func (f *flux) reconcileOne(ctx context.Context, dir string, ks kustomizev1.Kustomization) ([]outcome, error) {
	objs, err := build(filepath.Join(dir, ks.Spec.Path), ks.Spec.TargetNamespace)
	if err != nil {
		return nil, err
	}
	if err := normalize.UnstructuredList(objs); err != nil {
		return nil, err
	}
	f.rm.SetOwnerLabels(objs, ks.Name, ks.Namespace)
	opts := ssa.DefaultApplyOptions()
	opts.Force = ks.Spec.Force
	group := kustomizev1.GroupVersion.Group
	opts.ExclusionSelector = map[string]string{group + "/reconcile": kustomizev1.DisabledValue, group + "/ssa": kustomizev1.IgnoreValue}
	opts.IfNotPresentSelector = map[string]string{group + "/ssa": kustomizev1.IfNotPresentValue}
	opts.ForceSelector = map[string]string{group + "/force": kustomizev1.EnabledValue}
	cs, err := f.rm.ApplyAllStaged(ctx, objs, opts)
	var out []outcome
	if cs != nil {
		for _, e := range cs.Entries {
			out = append(out, outcome{key: e.ObjMetadata.GroupKind.Kind + " " + e.ObjMetadata.Namespace + "/" + e.ObjMetadata.Name, action: string(e.Action)})
		}
	}
	if err != nil {
		key := "Kustomization " + ks.Name
		var dry *ssaerrors.DryRunErr
		if errors.As(err, &dry) && dry.InvolvedObject() != nil {
			key = keyOf(dry.InvolvedObject())
		}
		return append(out, outcome{key: key, action: "refused", err: err}), err
	}
	pruned, err := f.prune(ctx, ks, objs)
	return append(out, pruned...), err
}

// prune deletes what the Kustomization applied before and no longer
// holds, as kustomize-controller's deleteObjects does.
func (f *flux) prune(ctx context.Context, ks kustomizev1.Kustomization, objs []*unstructured.Unstructured) ([]outcome, error) {
	now := map[string]bool{}
	for _, o := range objs {
		now[keyOf(o)] = true
	}
	var stale []*unstructured.Unstructured
	for _, o := range f.inventory[ks.Name] {
		if !now[keyOf(o)] {
			stale = append(stale, o)
		}
	}
	f.inventory[ks.Name] = objs
	if len(stale) == 0 || !ks.Spec.Prune {
		return nil, nil
	}
	return f.deleteAll(ctx, ks, stale)
}

// deleteAll deletes what a Kustomization applied, as
// kustomize-controller's deleteObjects does.
func (f *flux) deleteAll(ctx context.Context, ks kustomizev1.Kustomization, stale []*unstructured.Unstructured) ([]outcome, error) {
	group := kustomizev1.GroupVersion.Group
	_, err := f.rm.DeleteAll(ctx, stale, ssa.DeleteOptions{
		PropagationPolicy: metav1.DeletePropagationBackground,
		Inclusions:        f.rm.GetOwnerLabels(ks.Name, ks.Namespace),
		Exclusions:        map[string]string{group + "/prune": kustomizev1.DisabledValue, group + "/reconcile": kustomizev1.DisabledValue, group + "/ssa": kustomizev1.IgnoreValue},
	})
	var out []outcome
	for _, o := range stale {
		out = append(out, outcome{key: keyOf(o), action: "pruned"})
	}
	return out, err
}

// kustomizations reads the Kustomizations of dir/flux, ordered so that
// each comes after those it depends on.
func kustomizations(dir string) ([]kustomizev1.Kustomization, error) {
	files, err := filepath.Glob(filepath.Join(dir, "flux", "*.yaml"))
	if err != nil {
		return nil, err
	}
	byName := map[string]kustomizev1.Kustomization{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		for _, doc := range strings.Split(string(data), "\n---\n") {
			var tm metav1.TypeMeta
			if err := yaml.Unmarshal([]byte(doc), &tm); err != nil || tm.APIVersion != kustomizev1.GroupVersion.String() {
				continue // flux/kustomization.yaml, kustomize's own
			}
			var ks kustomizev1.Kustomization
			if err := yaml.UnmarshalStrict([]byte(doc), &ks); err != nil {
				return nil, fmt.Errorf("%s: %w", file, err)
			}
			if filepath.Clean(ks.Spec.Path) == "flux" {
				continue // a parent that applies the Kustomizations themselves
			}
			byName[ks.Name] = ks
		}
	}
	var out []kustomizev1.Kustomization
	done := map[string]bool{}
	var visit func(name string) error
	visit = func(name string) error {
		if done[name] {
			return nil
		}
		ks, ok := byName[name]
		if !ok {
			return fmt.Errorf("no Kustomization %s in %s/flux", name, dir)
		}
		done[name] = true
		for _, d := range ks.Spec.DependsOn {
			if err := visit(d.Name); err != nil {
				return err
			}
		}
		out = append(out, ks)
		return nil
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if err := visit(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// build is kustomize build of a folder, as kustomize-controller builds a
// Kustomization's path.
func build(path, targetNamespace string) ([]*unstructured.Unstructured, error) {
	rm, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), path)
	if err != nil {
		return nil, err
	}
	var out []*unstructured.Unstructured
	for _, r := range rm.Resources() {
		body, err := r.MarshalJSON()
		if err != nil {
			return nil, err
		}
		u := &unstructured.Unstructured{}
		if err := u.UnmarshalJSON(body); err != nil { // numbers as int64, as a client decodes them
			return nil, err
		}
		if targetNamespace != "" && u.GetNamespace() != "" {
			u.SetNamespace(targetNamespace)
		}
		out = append(out, u)
	}
	return out, nil
}
