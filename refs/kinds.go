package refs

import (
	"sort"
	"strings"
)

// builtinKind is one built-in Kubernetes kind, as `kubectl api-resources`
// lists it.
type builtinKind struct {
	group      string
	kind       string
	plural     string
	short      []string
	namespaced bool
}

// builtinKinds are the kinds a reference can name without a
// CustomResourceDefinition in the render. Singular names are the lowercased
// kinds. Kinds that exist in two groups (Event) are listed twice; without
// apiVersion the core one wins.
var builtinKinds = []builtinKind{
	// core (apiVersion v1)
	{"", "Binding", "bindings", nil, true},
	{"", "ComponentStatus", "componentstatuses", []string{"cs"}, false},
	{"", "ConfigMap", "configmaps", []string{"cm"}, true},
	{"", "Endpoints", "endpoints", []string{"ep"}, true},
	{"", "Event", "events", []string{"ev"}, true},
	{"", "LimitRange", "limitranges", []string{"limits"}, true},
	{"", "Namespace", "namespaces", []string{"ns"}, false},
	{"", "Node", "nodes", []string{"no"}, false},
	{"", "PersistentVolumeClaim", "persistentvolumeclaims", []string{"pvc"}, true},
	{"", "PersistentVolume", "persistentvolumes", []string{"pv"}, false},
	{"", "Pod", "pods", []string{"po"}, true},
	{"", "PodTemplate", "podtemplates", nil, true},
	{"", "ReplicationController", "replicationcontrollers", []string{"rc"}, true},
	{"", "ResourceQuota", "resourcequotas", []string{"quota"}, true},
	{"", "Secret", "secrets", nil, true},
	{"", "ServiceAccount", "serviceaccounts", []string{"sa"}, true},
	{"", "Service", "services", []string{"svc"}, true},
	// admissionregistration.k8s.io
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicy", "mutatingadmissionpolicies", nil, false},
	{"admissionregistration.k8s.io", "MutatingAdmissionPolicyBinding", "mutatingadmissionpolicybindings", nil, false},
	{"admissionregistration.k8s.io", "MutatingWebhookConfiguration", "mutatingwebhookconfigurations", nil, false},
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicy", "validatingadmissionpolicies", nil, false},
	{"admissionregistration.k8s.io", "ValidatingAdmissionPolicyBinding", "validatingadmissionpolicybindings", nil, false},
	{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", nil, false},
	// apiextensions.k8s.io, apiregistration.k8s.io
	{"apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions", []string{"crd", "crds"}, false},
	{"apiregistration.k8s.io", "APIService", "apiservices", nil, false},
	// apps
	{"apps", "ControllerRevision", "controllerrevisions", nil, true},
	{"apps", "DaemonSet", "daemonsets", []string{"ds"}, true},
	{"apps", "Deployment", "deployments", []string{"deploy"}, true},
	{"apps", "ReplicaSet", "replicasets", []string{"rs"}, true},
	{"apps", "StatefulSet", "statefulsets", []string{"sts"}, true},
	// authentication.k8s.io, authorization.k8s.io
	{"authentication.k8s.io", "SelfSubjectReview", "selfsubjectreviews", nil, false},
	{"authentication.k8s.io", "TokenReview", "tokenreviews", nil, false},
	{"authorization.k8s.io", "LocalSubjectAccessReview", "localsubjectaccessreviews", nil, true},
	{"authorization.k8s.io", "SelfSubjectAccessReview", "selfsubjectaccessreviews", nil, false},
	{"authorization.k8s.io", "SelfSubjectRulesReview", "selfsubjectrulesreviews", nil, false},
	{"authorization.k8s.io", "SubjectAccessReview", "subjectaccessreviews", nil, false},
	// autoscaling, batch
	{"autoscaling", "HorizontalPodAutoscaler", "horizontalpodautoscalers", []string{"hpa"}, true},
	{"batch", "CronJob", "cronjobs", []string{"cj"}, true},
	{"batch", "Job", "jobs", nil, true},
	// certificates.k8s.io, coordination.k8s.io, discovery.k8s.io, events.k8s.io
	{"certificates.k8s.io", "CertificateSigningRequest", "certificatesigningrequests", []string{"csr"}, false},
	{"certificates.k8s.io", "ClusterTrustBundle", "clustertrustbundles", nil, false},
	{"coordination.k8s.io", "Lease", "leases", nil, true},
	{"coordination.k8s.io", "LeaseCandidate", "leasecandidates", nil, true},
	{"discovery.k8s.io", "EndpointSlice", "endpointslices", nil, true},
	{"events.k8s.io", "Event", "events", []string{"ev"}, true},
	// flowcontrol.apiserver.k8s.io
	{"flowcontrol.apiserver.k8s.io", "FlowSchema", "flowschemas", nil, false},
	{"flowcontrol.apiserver.k8s.io", "PriorityLevelConfiguration", "prioritylevelconfigurations", nil, false},
	// networking.k8s.io, node.k8s.io, policy
	{"networking.k8s.io", "IngressClass", "ingressclasses", nil, false},
	{"networking.k8s.io", "Ingress", "ingresses", []string{"ing"}, true},
	{"networking.k8s.io", "IPAddress", "ipaddresses", []string{"ip"}, false},
	{"networking.k8s.io", "NetworkPolicy", "networkpolicies", []string{"netpol"}, true},
	{"networking.k8s.io", "ServiceCIDR", "servicecidrs", nil, false},
	{"node.k8s.io", "RuntimeClass", "runtimeclasses", nil, false},
	{"policy", "PodDisruptionBudget", "poddisruptionbudgets", []string{"pdb"}, true},
	// rbac.authorization.k8s.io
	{"rbac.authorization.k8s.io", "ClusterRoleBinding", "clusterrolebindings", nil, false},
	{"rbac.authorization.k8s.io", "ClusterRole", "clusterroles", nil, false},
	{"rbac.authorization.k8s.io", "RoleBinding", "rolebindings", nil, true},
	{"rbac.authorization.k8s.io", "Role", "roles", nil, true},
	// resource.k8s.io
	{"resource.k8s.io", "DeviceClass", "deviceclasses", nil, false},
	{"resource.k8s.io", "ResourceClaim", "resourceclaims", nil, true},
	{"resource.k8s.io", "ResourceClaimTemplate", "resourceclaimtemplates", nil, true},
	{"resource.k8s.io", "ResourceSlice", "resourceslices", nil, false},
	// scheduling.k8s.io, storage.k8s.io
	{"scheduling.k8s.io", "PriorityClass", "priorityclasses", []string{"pc"}, false},
	{"storage.k8s.io", "CSIDriver", "csidrivers", nil, false},
	{"storage.k8s.io", "CSINode", "csinodes", nil, false},
	{"storage.k8s.io", "CSIStorageCapacity", "csistoragecapacities", nil, true},
	{"storage.k8s.io", "StorageClass", "storageclasses", []string{"sc"}, false},
	{"storage.k8s.io", "VolumeAttachment", "volumeattachments", nil, false},
	{"storage.k8s.io", "VolumeAttributesClass", "volumeattributesclasses", []string{"vac"}, false},
}

// gk is an API group and a kind.
type gk struct{ group, kind string }

func (g gk) String() string {
	if g.group == "" {
		return g.kind + " (core group)"
	}
	return g.kind + "." + g.group
}

// kindInfo is a kind that references can name.
type kindInfo struct {
	gk
	namespaced bool
}

// kindTable maps every name of a kind (lowercased Kind, plural, singular,
// short names) to the kinds carrying it.
type kindTable struct {
	byName map[string][]*kindInfo
	byGK   map[gk]*kindInfo
}

func newKindTable() *kindTable {
	return &kindTable{byName: map[string][]*kindInfo{}, byGK: map[gk]*kindInfo{}}
}

// add registers a kind under its names. A kind already known keeps its
// first definition (built-in kinds win over CRDs redefining them).
func (t *kindTable) add(k gk, namespaced bool, names ...string) *kindInfo {
	if ki := t.byGK[k]; ki != nil {
		return ki
	}
	ki := &kindInfo{gk: k, namespaced: namespaced}
	t.byGK[k] = ki
	seen := map[string]bool{}
	for _, n := range append(names, k.kind) {
		n = strings.ToLower(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		t.byName[n] = append(t.byName[n], ki)
	}
	return ki
}

// builtinTable is the kind table of the built-in kinds; every resolver
// copies it before adding the kinds it learns from the render.
var builtinTable = func() *kindTable {
	t := newKindTable()
	for _, b := range builtinKinds {
		t.add(gk{b.group, b.kind}, b.namespaced, append([]string{b.plural}, b.short...)...)
	}
	return t
}()

// kindsOf returns the kind table for docs: the built-in kinds, the kinds of
// the CustomResourceDefinitions among docs (with their plural, singular and
// short names and their scope) and the kinds of the objects themselves.
// The scope of a kind known only from objects is namespaced.
func kindsOf(docs []*doc) *kindTable {
	t := newKindTable()
	for k, v := range builtinTable.byName {
		t.byName[k] = append([]*kindInfo(nil), v...)
	}
	for k, v := range builtinTable.byGK {
		t.byGK[k] = v
	}
	for _, d := range docs {
		if d.gk != (gk{"apiextensions.k8s.io", "CustomResourceDefinition"}) {
			continue
		}
		sp, _ := d.work["spec"].(map[string]any)
		group, _ := sp["group"].(string)
		names, _ := sp["names"].(map[string]any)
		kind, _ := names["kind"].(string)
		if group == "" || kind == "" {
			continue
		}
		scope, _ := sp["scope"].(string)
		var aliases []string
		for _, f := range []string{"plural", "singular"} {
			if s, ok := names[f].(string); ok {
				aliases = append(aliases, s)
			}
		}
		short, _ := names["shortNames"].([]any)
		for _, s := range short {
			if s, ok := s.(string); ok {
				aliases = append(aliases, s)
			}
		}
		t.add(gk{group, kind}, scope != "Cluster", aliases...)
	}
	for _, d := range docs {
		if d.gk.kind != "" {
			t.add(d.gk, true)
		}
	}
	return t
}

// lookup finds the kind a reference names. group is only used when
// hasGroup: a reference with apiVersion restricts the candidates to that
// group; without it a core kind wins and several non-core kinds are
// ambiguous. It returns nil and a reason when no kind or more than one
// matches; ambiguous tells the two apart.
func (t *kindTable) lookup(name string, group string, hasGroup bool) (ki *kindInfo, ambiguous []string) {
	cands := t.byName[strings.ToLower(name)]
	var matches []*kindInfo
	for _, c := range cands {
		if hasGroup && c.group != group {
			continue
		}
		matches = append(matches, c)
	}
	if !hasGroup {
		for _, c := range matches {
			if c.group == "" {
				return c, nil
			}
		}
	}
	switch len(matches) {
	case 0:
		return nil, nil
	case 1:
		return matches[0], nil
	}
	for _, m := range matches {
		ambiguous = append(ambiguous, m.String())
	}
	sort.Strings(ambiguous)
	return nil, ambiguous
}

// isSecret reports whether o is a core Secret.
func isSecret(k gk) bool { return k == gk{"", "Secret"} }

// gkOf returns the group and kind of m, and false when apiVersion or kind
// is not a string (for instance a reference still to resolve).
func gkOf(m map[string]any) (gk, bool) {
	av, ok1 := m["apiVersion"].(string)
	k, ok2 := m["kind"].(string)
	if !ok1 || !ok2 {
		return gk{}, false
	}
	return gk{groupOf(av), k}, true
}

// groupOf returns the group of an apiVersion ("" for "v1").
func groupOf(apiVersion string) string {
	g, _, found := strings.Cut(apiVersion, "/")
	if !found {
		return ""
	}
	return g
}
