package versions

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The Go types and conversions of autoscaling/v2beta1 and v2beta2 are gone
// from the Kubernetes libraries, so HorizontalPodAutoscalers are converted
// here, field by field, as Kubernetes' conversion did before its removal
// (pkg/apis/autoscaling/v2beta1/conversion.go): v2beta2 has the fields of
// v2; v2beta1 keeps each metric's target in fields of its own. The
// defaults of both (minReplicas 1, a CPU utilization of 80% without
// metrics, the scaling behavior) are those of v2. The result is read
// strictly as autoscaling/v2.

// behaviorAnnotation is where autoscaling/v2beta1 kept spec.behavior.
const behaviorAnnotation = "autoscaling.alpha.kubernetes.io/behavior"

func convertHPA(m map[string]any, from, to string) (map[string]any, []string, *refusal, error) {
	out := deepCopyMap(m)
	out["apiVersion"] = to
	var notes []string
	if from == "autoscaling/v2beta1" {
		if _, ok := out["status"]; ok {
			return nil, nil, &refusal{field: "status", msg: "the cluster writes the status of a HorizontalPodAutoscaler: remove it and use apiVersion " + to}, nil
		}
		spec := mapOf(out["spec"])
		for i, x := range asList(spec["metrics"]) {
			mm := mapOf(x)
			if mm == nil {
				continue
			}
			if ref := convertMetric(mm, i); ref != nil {
				return nil, nil, ref, nil
			}
		}
		if len(asList(spec["metrics"])) > 0 {
			notes = append(notes, "moved the targets of spec.metrics into target (type, value, averageValue, averageUtilization) and metricName and selectors into metric")
		}
		if ref, moved := behaviorFromAnnotation(out, spec); ref != nil {
			return nil, nil, ref, nil
		} else if moved {
			notes = append(notes, "moved annotation "+behaviorAnnotation+" to spec.behavior")
		}
	}
	s, err := schemeFor(to)
	if err != nil {
		return nil, nil, nil, err
	}
	t := &typed{s: s}
	gv, _ := schema.ParseGroupVersion(to)
	if _, ref, err := t.decode(out, gv.WithKind("HorizontalPodAutoscaler")); ref != nil || err != nil {
		return nil, nil, ref, err
	}
	return out, notes, nil, nil
}

// metricFields are the fields of each autoscaling/v2beta1 metric source.
var metricFields = map[string][]string{
	"Resource":          {"name", "targetAverageUtilization", "targetAverageValue"},
	"ContainerResource": {"name", "container", "targetAverageUtilization", "targetAverageValue"},
	"Pods":              {"metricName", "selector", "targetAverageValue"},
	"Object":            {"target", "metricName", "selector", "targetValue", "averageValue"},
	"External":          {"metricName", "metricSelector", "targetValue", "targetAverageValue"},
}

// sourceKeys are the keys of a v2beta1 metric holding the source of each
// metric type.
var sourceKeys = map[string]string{"Resource": "resource", "ContainerResource": "containerResource", "Pods": "pods", "Object": "object", "External": "external"}

// convertMetric rewrites metric i of autoscaling/v2beta1 in place as
// autoscaling/v2.
func convertMetric(metric map[string]any, i int) *refusal {
	typ, _ := metric["type"].(string)
	key, ok := sourceKeys[typ]
	src := mapOf(metric[key])
	if !ok || src == nil {
		return nil // the strict decoding as v2 says what is wrong
	}
	at := fmt.Sprintf("spec.metrics[%d].%s", i, key)
	for k := range src {
		if !slices.Contains(metricFields[typ], k) {
			return &refusal{field: at + "." + k, msg: fmt.Sprintf("autoscaling/v2beta1 has no field %s.%s: remove it", at, k)}
		}
	}
	out := map[string]any{}
	target := map[string]any{}
	copyKey := func(to map[string]any, toKey, fromKey string) {
		if v, ok := src[fromKey]; ok {
			to[toKey] = v
		}
	}
	switch typ {
	case "Resource", "ContainerResource":
		copyKey(out, "name", "name")
		copyKey(out, "container", "container")
		target["type"] = "AverageValue"
		if _, ok := src["targetAverageUtilization"]; ok {
			target["type"] = "Utilization"
		}
		copyKey(target, "averageUtilization", "targetAverageUtilization")
		copyKey(target, "averageValue", "targetAverageValue")
	case "Pods":
		target["type"] = "AverageValue"
		copyKey(target, "averageValue", "targetAverageValue")
		out["metric"] = identifier(src, "selector")
	case "Object":
		copyKey(out, "describedObject", "target")
		target["type"] = "Value"
		if _, ok := src["averageValue"]; ok {
			target["type"] = "AverageValue"
		}
		copyKey(target, "value", "targetValue")
		copyKey(target, "averageValue", "averageValue")
		out["metric"] = identifier(src, "selector")
	case "External":
		target["type"] = "AverageValue"
		if _, ok := src["targetValue"]; ok {
			target["type"] = "Value"
		}
		copyKey(target, "value", "targetValue")
		copyKey(target, "averageValue", "targetAverageValue")
		out["metric"] = identifier(src, "metricSelector")
	}
	out["target"] = target
	metric[key] = out
	return nil
}

// identifier builds the metric of autoscaling/v2 from metricName and the
// selector under selectorKey.
func identifier(src map[string]any, selectorKey string) map[string]any {
	id := map[string]any{}
	if v, ok := src["metricName"]; ok {
		id["name"] = v
	}
	if v, ok := src[selectorKey]; ok {
		id["selector"] = v
	}
	return id
}

// behaviorFromAnnotation moves the behavior autoscaling/v2beta1 kept in an
// annotation into spec.behavior, as Kubernetes' conversion did.
func behaviorFromAnnotation(out, spec map[string]any) (*refusal, bool) {
	anns := mapOf(mapOf(out["metadata"])["annotations"])
	raw, ok := anns[behaviorAnnotation].(string)
	if !ok {
		return nil, false
	}
	field := "metadata.annotations." + behaviorAnnotation
	if _, both := spec["behavior"]; both {
		return &refusal{field: field, msg: "spec.behavior is set too: remove the annotation"}, false
	}
	b, err := decodeJSON([]byte(raw))
	if err != nil || mapOf(b) == nil {
		return &refusal{field: field, msg: "it is not a JSON object: write the behavior in spec.behavior of autoscaling/v2"}, false
	}
	if spec == nil {
		spec = map[string]any{}
		out["spec"] = spec
	}
	spec["behavior"] = b
	delete(anns, behaviorAnnotation)
	if len(anns) == 0 {
		delete(mapOf(out["metadata"]), "annotations")
	}
	return nil, true
}
