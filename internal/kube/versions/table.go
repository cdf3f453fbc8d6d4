package versions

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
)

// Removal is an API version of a kind that Kubernetes stopped serving.
type Removal struct {
	// APIVersion and Kind name the removed API: extensions/v1beta1
	// Deployment.
	APIVersion, Kind string
	// Removed is the first Kubernetes version that does not serve it.
	Removed kubeversion.Version
	// Successors are the API versions of the same kind that replace it,
	// in the order Convert prefers them: Convert uses the first one the
	// target version serves. Empty when nothing replaces the kind.
	Successors []Successor
	// Instead says what replaces a kind that has no successor (or none
	// the target serves).
	Instead string
	// Changes sums up what the successor does differently, as the
	// Kubernetes deprecation guide lists it.
	Changes string
}

// Successor is an API version that replaces a removed one.
type Successor struct {
	APIVersion string
	// Since is the first Kubernetes version that serves it.
	Since kubeversion.Version
}

// how says which code converts a row.
type how uint8

const (
	byScheme how = iota // Kubernetes' conversion and defaulting code
	byCRD               // byScheme, with the CustomResourceDefinition rules of crd.go
	byHPA               // autoscaling v2beta1/v2beta2 by hand (hpa.go): no Go types are left
	byRename            // same fields under another apiVersion, no Go types are left
)

// row is a Removal and how Convert converts it.
type row struct {
	Removal
	how how
	// check, when set, refuses objects whose successor would behave
	// differently (policy/v1beta1 PodDisruptionBudget with an empty
	// selector); it runs on the object as written.
	check func(m map[string]any) *refusal
	// after, when set, refuses converted objects the successor's
	// validation would refuse; it runs on the output.
	after func(m map[string]any) *refusal
	// before, when set, rewrites the object as written into the
	// equivalent one of its version that converts without loss, with
	// notes on what it rewrote.
	before func(m map[string]any) (map[string]any, []string)
}

func v(minor int) kubeversion.Version { return kubeversion.Version{Major: 1, Minor: minor} }

// since builds a list of successors: apiVersion, minor, apiVersion, minor...
func since(pairs ...any) []Successor {
	var out []Successor
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, Successor{APIVersion: pairs[i].(string), Since: v(pairs[i+1].(int))})
	}
	return out
}

// kinds expands one removal to several kinds of the same group version.
func kinds(r row, ks ...string) []row {
	out := make([]row, len(ks))
	for i, k := range ks {
		out[i] = r
		out[i].Kind = k
	}
	return out
}

const (
	noChanges   = "no notable changes"
	appsChanges = "spec.selector is required (defaulted from the template's labels before)"
	pspInstead  = "Pod Security Admission (the namespace labels pod-security.kubernetes.io/enforce, audit and warn) or a policy engine (Kyverno, Gatekeeper)"
)

// table lists every removal the Kubernetes deprecation guide lists
// (1.16 to 1.32) and the beta API versions the Kubernetes libraries of
// Default declare removed since (1.33 to 1.37: their prerelease-lifecycle
// markers, which kube-apiserver follows), plus
// rbac.authorization.k8s.io/v1alpha1, which 1.22 removed with v1beta1.
// TestTableMatchesKubernetes checks it against those markers. It is built
// on first use, not at start-up.
var table = sync.OnceValue(func() []row {
	return sortRows(slices.Concat(
		// 1.16
		kinds(row{Removal: Removal{APIVersion: "extensions/v1beta1", Removed: v(16), Successors: since("apps/v1", 9),
			Changes: appsChanges + "; spec.updateStrategy.type defaults to RollingUpdate (OnDelete before); spec.templateGeneration is removed"}}, "DaemonSet"),
		kinds(row{Removal: Removal{APIVersion: "extensions/v1beta1", Removed: v(16), Successors: since("apps/v1", 9),
			Changes: appsChanges + "; spec.rollbackTo is removed; spec.progressDeadlineSeconds defaults to 600 (no deadline before), spec.revisionHistoryLimit to 10 (all before), maxSurge and maxUnavailable to 25% (1 before)"}}, "Deployment"),
		kinds(row{Removal: Removal{APIVersion: "extensions/v1beta1", Removed: v(16), Successors: since("apps/v1", 9), Changes: appsChanges}}, "ReplicaSet"),
		kinds(row{Removal: Removal{APIVersion: "extensions/v1beta1", Removed: v(16), Successors: since("networking.k8s.io/v1", 8), Changes: noChanges}}, "NetworkPolicy"),
		kinds(row{Removal: Removal{APIVersion: "extensions/v1beta1", Removed: v(16), Successors: since("policy/v1beta1", 10), Instead: pspInstead,
			Changes: "policy/v1beta1 has the same fields, and is itself removed in 1.25"}, how: byRename}, "PodSecurityPolicy"),
		kinds(row{Removal: Removal{APIVersion: "apps/v1beta1", Removed: v(16), Successors: since("apps/v1", 9), Changes: noChanges}}, "ControllerRevision"),
		kinds(row{Removal: Removal{APIVersion: "apps/v1beta1", Removed: v(16), Successors: since("apps/v1", 9),
			Changes: appsChanges + "; spec.rollbackTo is removed; spec.revisionHistoryLimit defaults to 10 (2 before)"}}, "Deployment"),
		kinds(row{Removal: Removal{APIVersion: "apps/v1beta1", Removed: v(16), Successors: since("apps/v1", 9),
			Changes: appsChanges + "; spec.updateStrategy.type defaults to RollingUpdate (OnDelete before)"}}, "StatefulSet"),
		kinds(row{Removal: Removal{APIVersion: "apps/v1beta2", Removed: v(16), Successors: since("apps/v1", 9), Changes: noChanges}}, "ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"),
		// 1.22
		kinds(row{Removal: Removal{APIVersion: "admissionregistration.k8s.io/v1beta1", Removed: v(22), Successors: since("admissionregistration.k8s.io/v1", 16),
			Changes: "webhooks[*].failurePolicy defaults to Fail (Ignore before), matchPolicy to Equivalent (Exact before), timeoutSeconds to 10 (30 before); sideEffects (None or NoneOnDryRun) and admissionReviewVersions are required"},
			after: webhookSideEffects}, "MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"),
		kinds(row{Removal: Removal{APIVersion: "apiextensions.k8s.io/v1beta1", Removed: v(22), Successors: since("apiextensions.k8s.io/v1", 16),
			Changes: "spec.scope is required; spec.version, validation, subresources and additionalPrinterColumns move into spec.versions[*]; every version needs a structural schema; spec.preserveUnknownFields: true becomes x-kubernetes-preserve-unknown-fields; JSONPath is renamed jsonPath"},
			how: byCRD, before: crdBefore}, "CustomResourceDefinition"),
		kinds(row{Removal: Removal{APIVersion: "apiregistration.k8s.io/v1beta1", Removed: v(22), Successors: since("apiregistration.k8s.io/v1", 10), Changes: noChanges}, how: byRename}, "APIService"),
		kinds(row{Removal: Removal{APIVersion: "authentication.k8s.io/v1beta1", Removed: v(22), Successors: since("authentication.k8s.io/v1", 6), Changes: noChanges}}, "TokenReview"),
		kinds(row{Removal: Removal{APIVersion: "authorization.k8s.io/v1beta1", Removed: v(22), Successors: since("authorization.k8s.io/v1", 6), Changes: "spec.group is renamed spec.groups"}},
			"LocalSubjectAccessReview", "SelfSubjectAccessReview", "SelfSubjectRulesReview", "SubjectAccessReview"),
		kinds(row{Removal: Removal{APIVersion: "certificates.k8s.io/v1beta1", Removed: v(22), Successors: since("certificates.k8s.io/v1", 19),
			Changes: "spec.signerName and spec.usages are required; kubernetes.io/legacy-unknown cannot be requested"}, after: csrSigner}, "CertificateSigningRequest"),
		kinds(row{Removal: Removal{APIVersion: "coordination.k8s.io/v1beta1", Removed: v(22), Successors: since("coordination.k8s.io/v1", 14), Changes: noChanges}}, "Lease"),
		kinds(row{Removal: Removal{APIVersion: "extensions/v1beta1", Removed: v(22), Successors: since("networking.k8s.io/v1", 19), Changes: ingressChanges}}, "Ingress"),
		kinds(row{Removal: Removal{APIVersion: "networking.k8s.io/v1beta1", Removed: v(22), Successors: since("networking.k8s.io/v1", 19), Changes: ingressChanges}}, "Ingress"),
		kinds(row{Removal: Removal{APIVersion: "networking.k8s.io/v1beta1", Removed: v(22), Successors: since("networking.k8s.io/v1", 19), Changes: noChanges}}, "IngressClass"),
		kinds(row{Removal: Removal{APIVersion: "rbac.authorization.k8s.io/v1alpha1", Removed: v(22), Successors: since("rbac.authorization.k8s.io/v1", 8), Changes: "an alpha version, served only when enabled; no notable changes"}},
			"ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"),
		kinds(row{Removal: Removal{APIVersion: "rbac.authorization.k8s.io/v1beta1", Removed: v(22), Successors: since("rbac.authorization.k8s.io/v1", 8), Changes: noChanges}},
			"ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding"),
		kinds(row{Removal: Removal{APIVersion: "scheduling.k8s.io/v1beta1", Removed: v(22), Successors: since("scheduling.k8s.io/v1", 14), Changes: noChanges}}, "PriorityClass"),
		kinds(row{Removal: Removal{APIVersion: "storage.k8s.io/v1beta1", Removed: v(22), Successors: since("storage.k8s.io/v1", 19), Changes: noChanges}}, "CSIDriver"),
		kinds(row{Removal: Removal{APIVersion: "storage.k8s.io/v1beta1", Removed: v(22), Successors: since("storage.k8s.io/v1", 17), Changes: noChanges}}, "CSINode"),
		kinds(row{Removal: Removal{APIVersion: "storage.k8s.io/v1beta1", Removed: v(22), Successors: since("storage.k8s.io/v1", 6), Changes: noChanges}}, "StorageClass"),
		kinds(row{Removal: Removal{APIVersion: "storage.k8s.io/v1beta1", Removed: v(22), Successors: since("storage.k8s.io/v1", 13), Changes: noChanges}}, "VolumeAttachment"),
		// 1.25
		kinds(row{Removal: Removal{APIVersion: "autoscaling/v2beta1", Removed: v(25), Successors: since("autoscaling/v2", 23),
			Changes: "metrics[*] targets move into target (targetAverageUtilization becomes target.averageUtilization with target.type Utilization); metricName and selector move into metric"}, how: byHPA}, "HorizontalPodAutoscaler"),
		kinds(row{Removal: Removal{APIVersion: "batch/v1beta1", Removed: v(25), Successors: since("batch/v1", 21), Changes: noChanges}}, "CronJob"),
		kinds(row{Removal: Removal{APIVersion: "discovery.k8s.io/v1beta1", Removed: v(25), Successors: since("discovery.k8s.io/v1", 21),
			Changes: "endpoints[*].topology becomes nodeName, zone and the read-only deprecatedTopology"}, before: sliceNodeName, after: sliceTopology}, "EndpointSlice"),
		kinds(row{Removal: Removal{APIVersion: "events.k8s.io/v1beta1", Removed: v(25), Successors: since("events.k8s.io/v1", 19),
			Changes: "type is Normal or Warning; deprecated fields are renamed deprecated*"}}, "Event"),
		kinds(row{Removal: Removal{APIVersion: "node.k8s.io/v1beta1", Removed: v(25), Successors: since("node.k8s.io/v1", 20), Changes: noChanges}}, "RuntimeClass"),
		kinds(row{Removal: Removal{APIVersion: "policy/v1beta1", Removed: v(25), Successors: since("policy/v1", 21),
			Changes: "an empty spec.selector ({}) selects every pod of the namespace (none before)"}, check: pdbEmptySelector}, "PodDisruptionBudget"),
		kinds(row{Removal: Removal{APIVersion: "policy/v1beta1", Removed: v(25), Instead: pspInstead, Changes: "removed without successor"}}, "PodSecurityPolicy"),
		// 1.26
		kinds(row{Removal: Removal{APIVersion: "autoscaling/v2beta2", Removed: v(26), Successors: since("autoscaling/v2", 23), Changes: noChanges}, how: byHPA}, "HorizontalPodAutoscaler"),
		kinds(row{Removal: Removal{APIVersion: "flowcontrol.apiserver.k8s.io/v1beta1", Removed: v(26), Successors: since("flowcontrol.apiserver.k8s.io/v1", 29, "flowcontrol.apiserver.k8s.io/v1beta3", 26),
			Changes: flowChanges}}, "FlowSchema", "PriorityLevelConfiguration"),
		// 1.27
		kinds(row{Removal: Removal{APIVersion: "storage.k8s.io/v1beta1", Removed: v(27), Successors: since("storage.k8s.io/v1", 24), Changes: noChanges}}, "CSIStorageCapacity"),
		// 1.29
		kinds(row{Removal: Removal{APIVersion: "flowcontrol.apiserver.k8s.io/v1beta2", Removed: v(29), Successors: since("flowcontrol.apiserver.k8s.io/v1", 29, "flowcontrol.apiserver.k8s.io/v1beta3", 26),
			Changes: flowChanges}}, "FlowSchema", "PriorityLevelConfiguration"),
		// 1.32
		kinds(row{Removal: Removal{APIVersion: "flowcontrol.apiserver.k8s.io/v1beta3", Removed: v(32), Successors: since("flowcontrol.apiserver.k8s.io/v1", 29),
			Changes: "spec.limited.nominalConcurrencyShares defaults to 30 only when unset (an explicit 0 stays 0)"}}, "FlowSchema", "PriorityLevelConfiguration"),
		// 1.33 to 1.37: beta versions past their lifecycle in the Kubernetes libraries.
		kinds(row{Removal: Removal{APIVersion: "authentication.k8s.io/v1beta1", Removed: v(33), Successors: since("authentication.k8s.io/v1", 28), Changes: noChanges}}, "SelfSubjectReview"),
		kinds(row{Removal: Removal{APIVersion: "admissionregistration.k8s.io/v1beta1", Removed: v(34), Successors: since("admissionregistration.k8s.io/v1", 30), Changes: noChanges}},
			"ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding"),
		kinds(row{Removal: Removal{APIVersion: "networking.k8s.io/v1beta1", Removed: v(37), Successors: since("networking.k8s.io/v1", 33), Changes: noChanges}}, "IPAddress", "ServiceCIDR"),
		kinds(row{Removal: Removal{APIVersion: "storage.k8s.io/v1beta1", Removed: v(37), Successors: since("storage.k8s.io/v1", 34), Changes: noChanges}}, "VolumeAttributesClass"),
	))
})

const (
	ingressChanges = "spec.backend is renamed spec.defaultBackend; serviceName becomes service.name, servicePort service.port.number or service.port.name; pathType is required (ImplementationSpecific was the default)"
	flowChanges    = "spec.limited.assuredConcurrencyShares is renamed nominalConcurrencyShares"
)

func sortRows(rows []row) []row {
	slices.SortFunc(rows, func(a, b row) int {
		return cmp.Or(a.Removed.Compare(b.Removed), strings.Compare(a.APIVersion, b.APIVersion), strings.Compare(a.Kind, b.Kind))
	})
	return rows
}

// Table returns every removal Convert knows, sorted by the version that
// removed it, then API version and kind.
func Table() []Removal {
	t := table()
	out := make([]Removal, len(t))
	for i, r := range t {
		out[i] = r.Removal
		out[i].Successors = slices.Clone(r.Successors)
	}
	return out
}

type rowKey struct{ apiVersion, kind string }

// rows indexes the table, built on first use.
var rows = sync.OnceValue(func() map[rowKey]*row {
	t := table()
	m := make(map[rowKey]*row, len(t))
	for i := range t {
		m[rowKey{t[i].APIVersion, t[i].Kind}] = &t[i]
	}
	return m
})

// StillServed reports whether target still serves apiVersion and kind,
// an API version the table says a later Kubernetes removed: false for
// versions the table does not list.
func StillServed(apiVersion, kind string, target kubeversion.Version) bool {
	r := lookup(apiVersion, kind)
	return r != nil && target.Compare(r.Removed) < 0
}

// lookup finds the row of apiVersion and kind.
func lookup(apiVersion, kind string) *row { return rows()[rowKey{apiVersion, kind}] }

// successor is the API version that replaces r at target, or "" when the
// target serves none.
func (r *row) successor(target kubeversion.Version) string {
	for _, s := range r.Successors {
		if s.Since.Compare(target) > 0 {
			continue
		}
		if next := lookup(s.APIVersion, r.Kind); next != nil && next.Removed.Compare(target) <= 0 {
			continue
		}
		return s.APIVersion
	}
	return ""
}
