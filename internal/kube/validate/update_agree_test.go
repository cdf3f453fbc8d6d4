package validate_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/test/kubetest"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// TestUpdateAgreesWithAPIServer: for every update of the table and
// hundreds generated from it (each scalar of each object changed in turn),
// kudo-render refuses the update exactly when a real kube-apiserver
// refuses it, on the same fields. On the server the old object is created
// by server-side apply (a claim is then bound to a volume, as one in use
// is), and the new one applied over it by server-side apply with
// dryRun=All, the way Argo CD and Flux apply.
func TestUpdateAgreesWithAPIServer(t *testing.T) {
	srv := kubetest.Start(t)
	ctx := t.Context()
	mustApply(t, srv, ctx, storageClassExpandable)
	cases := append(slices.Clone(updateCases), generatedUpdates(t)...)
	disagree := 0
	for i, c := range cases {
		old, new := objects(t, c.old)[0], objects(t, c.new)[0]
		isolate(old, new, i)
		ours, _ := ourFields(old, new)
		theirs, err := serverFields(ctx, srv, old, new)
		if err != nil {
			t.Fatalf("%s: %v", c.reason, err)
		}
		if !slices.Equal(ours, theirs) {
			disagree++
			t.Errorf("%s:\nkudo-render refuses %q\nthe API server refuses %q\nold:\n%s\nnew:\n%s", c.reason, ours, theirs, c.old, c.new)
		}
	}
	t.Logf("%d updates, %d refused by the table, %d disagreements", len(cases), countRefused(cases), disagree)
}

const storageClassExpandable = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: expandable}
provisioner: example.com/none
allowVolumeExpansion: true
`

func countRefused(cases []updateCase) int {
	n := 0
	for _, c := range cases {
		if len(c.refused) > 0 {
			n++
		}
	}
	return n
}

// isolate gives the objects of case i a namespace (or, cluster-scoped, a
// name) of their own.
func isolate(old, new *object.Object, i int) {
	plural := old.String("spec", "names", "plural")
	for _, o := range []*object.Object{old, new} {
		md := o.Map["metadata"].(map[string]any)
		if o.Kind() == "CustomResourceDefinition" { // named <plural>.<group>, as old is
			group := fmt.Sprintf("upd%d.example.com", i)
			if spec, ok := o.Map["spec"].(map[string]any); ok && spec["group"] != nil {
				spec["group"] = group
			}
			md["name"] = plural + "." + group
			continue
		}
		if _, ok := md["namespace"]; ok {
			md["namespace"] = fmt.Sprintf("upd-%d", i)
		} else {
			md["name"] = fmt.Sprintf("%s-%d", md["name"], i)
		}
	}
}

// ourFields are the fields of kudo-render's refusal, sorted.
func ourFields(old, new *object.Object) ([]string, string) {
	var fields, msgs []string
	for _, d := range validate.Update(old, new, validate.Options{}) {
		fields = append(fields, d.Field)
		msgs = append(msgs, d.Msg)
	}
	slices.Sort(fields)
	return slices.Compact(fields), strings.Join(msgs, "; ")
}

// serverFields creates old for real and applies new over it as a dry
// run; they are the fields of the server's refusal, sorted (none: it
// accepts the update).
func serverFields(ctx context.Context, srv *kubetest.Server, old, new *object.Object) ([]string, error) {
	live := &unstructured.Unstructured{Object: jsonMap(old.Map)}
	ri, _, err := srv.ResourceOf(ctx, live)
	if err != nil {
		return nil, err
	}
	if err := applyTo(ctx, ri, live, false); err != nil {
		return nil, fmt.Errorf("creating the old object: %w", err)
	}
	switch live.GetKind() {
	case "PersistentVolumeClaim":
		if err := bind(ctx, srv, ri, live); err != nil {
			return nil, err
		}
	case "CustomResourceDefinition": // as it is on day two: established
		if err := established(ctx, ri, live.GetName()); err != nil {
			return nil, err
		}
	}
	err = applyTo(ctx, ri, &unstructured.Unstructured{Object: jsonMap(new.Map)}, true)
	var status apierrors.APIStatus
	switch {
	case err == nil:
		return nil, nil
	case !errors.As(err, &status) || status.Status().Details == nil:
		return []string{"(" + err.Error() + ")"}, nil
	}
	var fields []string
	for _, c := range status.Status().Details.Causes {
		fields = append(fields, c.Field)
	}
	slices.Sort(fields)
	return slices.Compact(fields), nil
}

// established waits until a CustomResourceDefinition is Established.
func established(ctx context.Context, ri dynamic.ResourceInterface, name string) error {
	for range 100 {
		crd, err := ri.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
		for _, c := range conds {
			if c, _ := c.(map[string]any); c["type"] == "Established" && c["status"] == "True" {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("CustomResourceDefinition %s is not established after 10 s", name)
}

// applyTo applies obj by server-side apply, as Flux and Argo CD do.
func applyTo(ctx context.Context, ri dynamic.ResourceInterface, obj *unstructured.Unstructured, dryRun bool) error {
	body, err := obj.MarshalJSON()
	if err != nil {
		return err
	}
	opts := metav1.PatchOptions{FieldManager: "day2", Force: new(true)}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	_, err = ri.Patch(ctx, obj.GetName(), types.ApplyPatchType, body, opts)
	return err
}

// bind binds a claim to a volume of its size, as the cluster does once
// the claim is used.
func bind(ctx context.Context, srv *kubetest.Server, ri dynamic.ResourceInterface, pvc *unstructured.Unstructured) error {
	size, _, _ := unstructured.NestedString(pvc.Object, "spec", "resources", "requests", "storage")
	class, _, _ := unstructured.NestedString(pvc.Object, "spec", "storageClassName")
	name := "pv-" + pvc.GetNamespace() + "-" + pvc.GetName()
	pv := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "PersistentVolume", "metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"capacity": map[string]any{"storage": size}, "accessModes": []any{"ReadWriteOnce"},
			"storageClassName": class, "hostPath": map[string]any{"path": "/tmp/" + name},
			"claimRef": map[string]any{"namespace": pvc.GetNamespace(), "name": pvc.GetName()},
		},
	}}
	pvs, _, err := srv.ResourceOf(ctx, pv)
	if err != nil {
		return err
	}
	if err := applyTo(ctx, pvs, pv, false); err != nil {
		return fmt.Errorf("creating the volume of the claim: %w", err)
	}
	cur, err := ri.Get(ctx, pvc.GetName(), metav1.GetOptions{})
	if err != nil {
		return err
	}
	_ = unstructured.SetNestedField(cur.Object, name, "spec", "volumeName")
	if cur, err = ri.Update(ctx, cur, metav1.UpdateOptions{FieldManager: "kube-controller-manager"}); err != nil {
		return fmt.Errorf("binding the claim: %w", err)
	}
	_ = unstructured.SetNestedField(cur.Object, map[string]any{
		"phase": "Bound", "accessModes": []any{"ReadWriteOnce"}, "capacity": map[string]any{"storage": size},
	}, "status")
	if _, err := ri.UpdateStatus(ctx, cur, metav1.UpdateOptions{FieldManager: "kube-controller-manager"}); err != nil {
		return fmt.Errorf("binding the claim: %w", err)
	}
	return nil
}

// mustApply creates the objects of a YAML document for real.
func mustApply(t *testing.T, srv *kubetest.Server, ctx context.Context, src string) {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	obj := &unstructured.Unstructured{Object: m}
	ri, _, err := srv.ResourceOf(ctx, obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := applyTo(ctx, ri, obj, false); err != nil {
		t.Fatal(err)
	}
}

// jsonMap is m as JSON gives it (numbers as float64 or int64).
func jsonMap(m map[string]any) map[string]any {
	body, err := object.JSON(m)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	if err := yaml.Unmarshal(body, &out); err != nil {
		panic(err)
	}
	return out
}

// generatedUpdates are updates made from the objects of the table: each
// scalar changed (a number plus one, a size doubled, a boolean flipped,
// an image's tag or a string changed) and each field removed, in turn.
// Names, namespaces and kinds stay.
func generatedUpdates(t *testing.T) []updateCase {
	var out []updateCase
	seen := map[string]bool{}
	for _, c := range updateCases {
		if seen[c.old] {
			continue
		}
		seen[c.old] = true
		base := objects(t, c.old)[0]
		for _, p := range leaves(base.Map, nil) {
			for _, op := range []string{"change", "remove"} {
				m := deepCopyMap(base.Map)
				if !mutateAt(m, p, op) {
					continue
				}
				body, err := object.New(m).Marshal()
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, updateCase{reason: fmt.Sprintf("%s %s: %s %s", base.Kind(), base.Name(), op, strings.Join(p, ".")), old: c.old, new: string(body)})
			}
		}
	}
	return out
}

// leaves are the paths of the scalars of m (list items by index), but
// for the object's identity.
func leaves(v any, p []string) [][]string {
	switch t := v.(type) {
	case map[string]any:
		var out [][]string
		for _, k := range slices.Sorted(maps.Keys(t)) {
			q := append(slices.Clone(p), k)
			switch strings.Join(q, ".") {
			case "apiVersion", "kind", "metadata.name", "metadata.namespace":
				continue
			}
			out = append(out, leaves(t[k], q)...)
		}
		return out
	case []any:
		var out [][]string
		for i, e := range t {
			out = append(out, leaves(e, append(slices.Clone(p), strconv.Itoa(i)))...)
		}
		return out
	}
	return [][]string{p}
}

// mutateAt changes or removes the value at path p of m; false when there
// is nothing to do.
func mutateAt(m map[string]any, p []string, op string) bool {
	var parent any = m
	for _, k := range p[:len(p)-1] {
		parent = child(parent, k)
	}
	last := p[len(p)-1]
	switch c := parent.(type) {
	case map[string]any:
		if op == "remove" {
			delete(c, last)
			return true
		}
		c[last] = changed(c[last])
	case []any:
		i, _ := strconv.Atoi(last)
		if op == "remove" {
			return false // a list item's removal is a change of the list
		}
		c[i] = changed(c[i])
	}
	return true
}

func child(v any, k string) any {
	switch c := v.(type) {
	case map[string]any:
		return c[k]
	case []any:
		i, _ := strconv.Atoi(k)
		return c[i]
	}
	return nil
}

// changed is another value of the same kind as v.
func changed(v any) any {
	switch t := v.(type) {
	case bool:
		return !t
	case int:
		return t + 1
	case int64:
		return t + 1
	case float64:
		return t + 1
	case string:
		if q, err := resource.ParseQuantity(t); err == nil && strings.ContainsAny(t, "KMGTi") {
			q.Add(q)
			return q.String()
		}
		if name, tag, ok := strings.Cut(t, ":"); ok && !strings.ContainsAny(tag, " /") && tag != "" {
			return name + ":" + tag + "1"
		}
		return t + "2"
	}
	return v
}

func deepCopyMap(m map[string]any) map[string]any { return object.New(m).DeepCopy().Map }
