package enhance

import (
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Label and annotation keys.
const (
	LabelHeritage      = "heritage"
	LabelOperator      = "kudo.dev/operator"
	LabelInstance      = "kudo.dev/instance"
	AnnPlan            = "kudo.dev/plan"
	AnnPhase           = "kudo.dev/phase"
	AnnStep            = "kudo.dev/step"
	AnnOperatorVersion = "kudo.dev/operator-version"
	AnnDependencies    = "kudo.dev/dependencies-hash"
	AnnSkipHash        = "kudo.dev/skip-hash-calculation"
	AnnSource          = "kudorender.dev/source"
	AnnTemplate        = "kudorender.dev/template"
	AnnOrigin          = "kudorender.dev/origin"
)

// Meta says what an object belongs to.
type Meta struct {
	OperatorName    string
	OperatorVersion string
	// Instance and Namespace are empty for common/ objects, which belong
	// to the framework, not to one instance.
	Instance  string
	Namespace string
	// Plan, Phase and Step are empty for common/ objects.
	Plan, Phase, Step string
	// Source is the framework as name@version (or with its git source).
	Source string
	// Origin lists git sources as url@commit:path, if any.
	Origin string
	// Template is the bundle path of the template.
	Template string
}

// Object adds KUDO's labels and annotations, the namespace and provenance.
func Object(o *object.Object, m Meta, scopes *Scopes) {
	// Written straight into the object's maps (no map of labels to copy
	// from), each value boxed once.
	heritage, operator, instance := any("kudo"), any(m.OperatorName), any(m.Instance)
	setLabels := func(target map[string]any) {
		if t := object.EnsureMap(target, "metadata", "labels"); t != nil {
			t[LabelHeritage], t[LabelOperator] = heritage, operator
			if m.Instance != "" {
				t[LabelInstance] = instance
			}
		}
	}
	setLabels(o.Map)
	if m.Plan != "" || m.Source != "" || m.Template != "" || m.Origin != "" {
		if t := object.EnsureMap(o.Map, "metadata", "annotations"); t != nil {
			if m.Plan != "" {
				t[AnnPlan], t[AnnPhase], t[AnnStep] = m.Plan, m.Phase, m.Step
			}
			setIf(t, AnnSource, m.Source)
			setIf(t, AnnTemplate, m.Template)
			setIf(t, AnnOrigin, m.Origin)
		}
	}
	for _, pt := range podTemplates(o) {
		setLabels(pt)
		object.SetStrings(pt, map[string]string{AnnOperatorVersion: m.OperatorVersion}, "metadata", "annotations")
	}
	for _, t := range extraLabelTargets(o) {
		setLabels(t)
	}
	switch {
	case scopes.ClusterScoped(o.Group(), o.Kind()):
		// A namespace on a cluster-scoped object is meaningless and makes
		// GitOps tools report a difference forever.
		if md := o.MapAt("metadata"); md != nil {
			delete(md, "namespace")
		}
	case m.Namespace != "":
		o.SetString(m.Namespace, "metadata", "namespace")
	}
}

// setIf sets t[k] to v unless v is empty.
func setIf(t map[string]any, k, v string) {
	if v != "" {
		t[k] = v
	}
}

// podTemplates returns the pod templates of workload kinds, as KUDO's
// enhancer finds them.
func podTemplates(o *object.Object) []map[string]any {
	var paths [][]string
	switch group, kind := o.Group(), o.Kind(); {
	case kind == "CronJob" && group == "batch":
		paths = [][]string{{"spec", "jobTemplate", "spec", "template"}}
	case kind == "StatefulSet" && group == "apps", kind == "Deployment" && group == "apps",
		kind == "Job" && group == "batch",
		kind == "ReplicaSet", kind == "DaemonSet", kind == "ReplicationController":
		paths = [][]string{{"spec", "template"}}
	}
	var out []map[string]any
	for _, p := range paths {
		if m, ok := object.Get(o.Map, p...).(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// extraLabelTargets are the volumeClaimTemplates of a StatefulSet and the
// job template of a CronJob: labelled, not annotated.
func extraLabelTargets(o *object.Object) []map[string]any {
	var out []map[string]any
	switch group, kind := o.Group(), o.Kind(); {
	case kind == "StatefulSet" && group == "apps":
		vcts, _ := object.Get(o.Map, "spec", "volumeClaimTemplates").([]any)
		for _, v := range vcts {
			if m, ok := v.(map[string]any); ok {
				out = append(out, m)
			}
		}
	case kind == "CronJob" && group == "batch":
		if m, ok := object.Get(o.Map, "spec", "jobTemplate").(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}
