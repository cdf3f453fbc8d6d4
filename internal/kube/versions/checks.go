package versions

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// pdbEmptySelector refuses a policy/v1beta1 PodDisruptionBudget with an
// empty selector: it selects no pod, and the same selector selects every
// pod of the namespace in policy/v1. (Kubernetes' conversion writes a
// selector that matches nothing instead; a budget that protects nothing is
// a mistake worth telling.)
func pdbEmptySelector(m map[string]any) *refusal {
	sel, ok := get(m, path{"spec", "selector"})
	if !ok || sel == nil {
		return nil
	}
	s, isMap := sel.(map[string]any)
	if !isMap || len(asList(s["matchExpressions"])) > 0 || len(mapOf(s["matchLabels"])) > 0 {
		return nil
	}
	return &refusal{field: "spec.selector", msg: "policy/v1 reads its empty selector differently: {} selects no pod in policy/v1beta1 and every pod of the namespace in policy/v1; write the labels of the pods to protect in spec.selector.matchLabels (or delete the PodDisruptionBudget, which protects nothing) and use apiVersion policy/v1"}
}

func mapOf(x any) map[string]any {
	m, _ := x.(map[string]any)
	return m
}

// webhookSideEffects refuses a webhook configuration whose webhooks
// declare (or defaulted to) side effects admissionregistration.k8s.io/v1
// does not accept.
func webhookSideEffects(m map[string]any) *refusal {
	for i, w := range asList(m["webhooks"]) {
		switch se := mapOf(w)["sideEffects"]; se {
		case "None", "NoneOnDryRun":
		default:
			return &refusal{field: fmt.Sprintf("webhooks[%d].sideEffects", i), msg: fmt.Sprintf("admissionregistration.k8s.io/v1 accepts only None and NoneOnDryRun, not %s (the v1beta1 default is Unknown): declare None or NoneOnDryRun if the webhook has no side effects on dry-run requests, and use apiVersion admissionregistration.k8s.io/v1", show(se))}
		}
	}
	return nil
}

// csrSigner refuses a CertificateSigningRequest for the legacy-unknown
// signer, which certificates.k8s.io/v1 does not accept.
func csrSigner(m map[string]any) *refusal {
	if s, _ := get(m, path{"spec", "signerName"}); s == "kubernetes.io/legacy-unknown" {
		return &refusal{field: "spec.signerName", msg: "certificates.k8s.io/v1 does not accept kubernetes.io/legacy-unknown (the v1beta1 default for these usages): name a signer (kubernetes.io/kube-apiserver-client, kubernetes.io/kube-apiserver-client-kubelet, kubernetes.io/kubelet-serving or your own) and use apiVersion certificates.k8s.io/v1"}
	}
	return nil
}

// sliceNodeName writes nodeName for endpoints of a
// discovery.k8s.io/v1beta1 EndpointSlice whose topology names the node
// (kubernetes.io/hostname) and that have no nodeName: discovery.k8s.io/v1
// has nodeName for it (the deprecation guide's advice), and Kubernetes'
// conversion moves the key only when nodeName says the same.
func sliceNodeName(m map[string]any) (map[string]any, []string) {
	out := deepCopyMap(m)
	moved := 0
	for _, e := range asList(out["endpoints"]) {
		em := mapOf(e)
		host, ok := mapOf(em["topology"])["kubernetes.io/hostname"].(string)
		if _, has := em["nodeName"]; ok && !has {
			em["nodeName"] = host
			moved++
		}
	}
	if moved == 0 {
		return m, nil
	}
	return out, []string{"wrote the kubernetes.io/hostname topology of endpoints as their nodeName"}
}

// sliceTopology refuses an EndpointSlice whose topology keeps keys
// discovery.k8s.io/v1 has no field for: they go to deprecatedTopology,
// which the API server drops from objects written as v1.
func sliceTopology(m map[string]any) *refusal {
	for i, e := range asList(m["endpoints"]) {
		if dt := mapOf(mapOf(e)["deprecatedTopology"]); len(dt) > 0 {
			keys := slices.Sorted(maps.Keys(dt))
			return &refusal{field: fmt.Sprintf("endpoints[%d].topology", i), msg: fmt.Sprintf("discovery.k8s.io/v1 has fields for the topology keys kubernetes.io/hostname (nodeName) and topology.kubernetes.io/zone (zone) only, and drops the others (deprecatedTopology) from objects it is given: remove %s and use apiVersion discovery.k8s.io/v1", strings.Join(keys, ", "))}
		}
	}
	return nil
}
