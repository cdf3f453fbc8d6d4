package validate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kinds"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Recreatable reports whether an object may be deleted and created again
// when the API server refuses to update it in place: it holds no data,
// nothing refers to it by an address it would lose, and it runs nothing
// that the change does not replace anyway, so recreating it loses nothing
// and restarts nothing else. GitOps tools recreate such objects only when
// their update is refused (Flux's force annotation, Argo CD's Force=true
// with client-side apply), never when they are unchanged:
//
//   - a Job (its pod template is immutable: a changed Job must run
//     again) and a bare Pod (its spec is);
//   - a ConfigMap or Secret marked immutable (its data is);
//   - a RoleBinding or ClusterRoleBinding (its roleRef is).
//
// Everything else is refused with what to do (Advice): a workload's
// selector or a StatefulSet's claim templates (recreating it would stop
// every pod at once, and with a Delete retention policy delete its
// claims), a Service's cluster IP (clients may hold the address), a
// PersistentVolumeClaim or PersistentVolume (their data), a Namespace or
// CustomResourceDefinition (everything in or of them), and the rarer
// cluster-wide kinds.
func Recreatable(o *object.Object) bool {
	switch o.Group() + "/" + o.Kind() {
	case "batch/Job", "/Pod", "rbac.authorization.k8s.io/RoleBinding", "rbac.authorization.k8s.io/ClusterRoleBinding":
		return true
	case "/ConfigMap", "/Secret":
		immutable, _ := o.Map["immutable"].(bool)
		return immutable
	}
	return false
}

// Advice says what to do about an update the API server refuses
// (problems, from Update) of an object that is not recreated: how to
// apply it without losing data, or why not to. new is the configuration
// applied.
func Advice(new *object.Object, problems []*diag.Diagnostic) string {
	fields := make([]string, len(problems))
	for i, p := range problems {
		fields[i] = p.Field
	}
	ref := kubectlRef(new)
	switch new.Group() + "/" + new.Kind() {
	case "apps/StatefulSet":
		return statefulSetAdvice(ref, new, fields)
	case "apps/Deployment", "apps/ReplicaSet", "apps/DaemonSet", "/ReplicationController":
		return fmt.Sprintf("delete it without its pods (kubectl delete %s --cascade=orphan) and sync: the new %s starts its own pods beside the old ones; then delete the old pods' owner (their ReplicaSet) or pods", ref, new.Kind())
	case "/PersistentVolumeClaim":
		return "a claim is never deleted to apply a change (its volume and data may go with it): a bound claim can only grow, and only when its StorageClass allows volume expansion; keep the old value, or create a claim of another name and move the data to it"
	case "/PersistentVolume":
		return "keep the old value: a volume is never deleted to apply a change"
	case "/Namespace":
		return "keep the old value: deleting a namespace deletes everything in it"
	case "apiextensions.k8s.io/CustomResourceDefinition":
		return "keep the old value, or migrate the stored objects first: deleting a CustomResourceDefinition deletes every object of its kind"
	case "/Service":
		return fmt.Sprintf("delete it (kubectl delete %s) and sync: it gets a new cluster IP (and a load balancer a new external address), which clients that do not look it up by name must learn; or keep the old value", ref)
	}
	return fmt.Sprintf("delete it (kubectl delete %s) and sync, or keep the old value", ref)
}

// statefulSetAdvice: a StatefulSet is replaced by deleting it without its
// pods, so that the new one adopts them; claims are never deleted.
func statefulSetAdvice(ref string, new *object.Object, fields []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "delete it without its pods (kubectl delete %s --cascade=orphan) and sync: ", ref)
	if slices.Contains(fields, "spec.selector") {
		b.WriteString("the new StatefulSet's selector no longer matches the old pods, so delete them one at a time (the claims stay), and it creates each again with its claim")
	} else {
		b.WriteString("the new StatefulSet adopts the running pods and replaces them one at a time only if their template changed; the claims stay")
	}
	if slices.Contains(fields, "spec.volumeClaimTemplates") {
		b.WriteString(". Claim templates make new claims only: to grow the existing ones, which their StorageClass must allow, patch each: ")
		b.WriteString(growClaims(new))
	}
	return b.String()
}

// growClaims is the shell loop that grows the claims of a StatefulSet's
// pods to its templates' sizes.
func growClaims(sts *object.Object) string {
	replicas := 1 // the default
	switch r := object.Get(sts.Map, "spec", "replicas").(type) {
	case int:
		replicas = r
	case int64:
		replicas = int(r)
	case float64:
		replicas = int(r)
	}
	ordinals := make([]string, max(0, min(replicas, 100)))
	for i := range ordinals {
		ordinals[i] = strconv.Itoa(i)
	}
	var loops []string
	templates, _ := object.Get(sts.Map, "spec", "volumeClaimTemplates").([]any)
	for _, t := range templates {
		m, _ := t.(map[string]any)
		tmpl := object.New(m)
		size := tmpl.String("spec", "resources", "requests", "storage")
		if size == "" {
			continue
		}
		loops = append(loops, fmt.Sprintf(`for i in %s; do kubectl patch pvc -n %s %s-%s-$i -p '{"spec":{"resources":{"requests":{"storage":"%s"}}}}'; done`,
			strings.Join(ordinals, " "), namespaceOf(sts), tmpl.Name(), sts.Name(), size))
	}
	return strings.Join(loops, "; ")
}

// kubectlRef names an object as kubectl's arguments do:
// "-n ns kind.group name".
func kubectlRef(o *object.Object) string {
	kind := strings.ToLower(o.Kind())
	if k, ok := kinds.Lookup(o.Group(), o.Kind()); ok && k.Plural != "" {
		kind = k.Plural
	}
	if o.Group() != "" {
		kind += "." + o.Group()
	}
	if ns := o.Namespace(); ns != "" {
		return fmt.Sprintf("-n %s %s %s", ns, kind, o.Name())
	}
	return kind + " " + o.Name()
}

func namespaceOf(o *object.Object) string {
	if ns := o.Namespace(); ns != "" {
		return ns
	}
	return "default"
}
