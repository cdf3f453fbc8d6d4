package differential

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// A dimension of the Service matrix: a field and the values it takes
// (nil: the field is left out).
type dimension struct {
	field  string
	values []any
}

// serviceTypes × externalTrafficPolicy × healthCheckNodePort is the core
// of the matrix: every combination is made; every other dimension takes a
// value drawn from the case's random source.
var (
	serviceTypes = []any{nil, "ClusterIP", "NodePort", "LoadBalancer", "ExternalName"}
	trafficPols  = []any{nil, "Local", "Cluster", "Bogus"}
	healthPorts  = []any{nil, 30099.0, 80.0, 0.0, 32768.0}
)

var serviceDims = []dimension{
	{"clusterIP", []any{nil, nil, "None", "10.0.0.50", "", "10.96.0.10", "not-an-ip"}},
	{"ports", []any{
		nil,
		[]any{map[string]any{"port": 80.0}},
		[]any{map[string]any{"name": "http", "port": 80.0, "targetPort": 8080.0}},
		[]any{map[string]any{"name": "http", "port": 80.0, "targetPort": "http"}},
		[]any{map[string]any{"name": "a", "port": 80.0}, map[string]any{"name": "b", "port": 443.0, "protocol": "UDP"}},
		[]any{map[string]any{"port": 80.0}, map[string]any{"port": 443.0}},
		[]any{map[string]any{"name": "a", "port": 80.0}, map[string]any{"name": "a", "port": 81.0}},
		[]any{map[string]any{"name": "a", "port": 80.0}, map[string]any{"name": "b", "port": 80.0}},
		[]any{map[string]any{"name": "a", "port": 80.0, "nodePort": 30080.0}},
		[]any{map[string]any{"name": "a", "port": 80.0, "nodePort": 80.0}},
		[]any{map[string]any{"name": "a", "port": 80.0, "nodePort": 32768.0}},
		[]any{map[string]any{"name": "a", "port": 80.0, "nodePort": 30081.0}, map[string]any{"name": "b", "port": 81.0, "nodePort": 30081.0}},
		[]any{map[string]any{"name": "a", "port": 80.0, "protocol": "SCTP"}},
		[]any{map[string]any{"name": "a", "port": 80.0, "appProtocol": "kubernetes.io/h2c"}},
		[]any{map[string]any{"name": "a", "port": 80.0, "targetPort": "a-port-name-too-long"}},
		[]any{map[string]any{"name": "dns", "port": 53.0, "protocol": "UDP"}, map[string]any{"name": "dns-tcp", "port": 53.0, "protocol": "TCP"}},
		[]any{map[string]any{"name": "a", "port": 0.0}},
	}},
	{"internalTrafficPolicy", []any{nil, nil, "Local", "Cluster", "Bogus"}},
	{"sessionAffinity", []any{nil, nil, "ClientIP", "None", "Sticky"}},
	{"sessionAffinityConfig", []any{nil, nil, nil, map[string]any{"clientIP": map[string]any{"timeoutSeconds": 100.0}}, map[string]any{"clientIP": map[string]any{"timeoutSeconds": 86401.0}}}},
	{"ipFamilyPolicy", []any{nil, nil, "SingleStack", "PreferDualStack", "RequireDualStack"}},
	{"ipFamilies", []any{nil, nil, nil, []any{"IPv4"}, []any{"IPv6"}, []any{"IPv4", "IPv6"}}},
	{"externalName", []any{nil, nil, "db.example.com", "Not A Name"}},
	{"loadBalancerSourceRanges", []any{nil, nil, nil, []any{"10.0.0.0/8"}, []any{"10.0.0.1"}}},
	{"allocateLoadBalancerNodePorts", []any{nil, nil, false, true}},
	{"loadBalancerClass", []any{nil, nil, nil, "example.com/lb", "lb"}},
	{"externalIPs", []any{nil, nil, nil, []any{"192.0.2.10"}}},
	{"publishNotReadyAddresses", []any{nil, true}},
	{"selector", []any{nil, map[string]any{"app": "a"}, map[string]any{"app": "a"}}},
	{"trafficDistribution", []any{nil, nil, nil, "PreferClose", "PreferSameZone", "Bogus"}},
	{"loadBalancerIP", []any{nil, nil, nil, nil, "192.0.2.20"}},
}

// ServiceCases is the Service matrix: every type × externalTrafficPolicy
// × healthCheckNodePort, rounds times, the other dimensions drawn from a
// random source of seed (the same cases for the same seed).
func ServiceCases(namespace string, rounds int, seed uint64) []Case {
	rnd := rand.New(rand.NewPCG(seed, 0x5e541ce))
	var out []Case
	n := 0
	for round := range rounds {
		for _, typ := range serviceTypes {
			for _, etp := range trafficPols {
				for _, hc := range healthPorts {
					spec := map[string]any{}
					var desc []string
					put := func(field string, v any) {
						if v != nil {
							spec[field] = deepCopy(v)
							desc = append(desc, fmt.Sprintf("%s=%s", field, short(v)))
						}
					}
					put("type", typ)
					put("externalTrafficPolicy", etp)
					put("healthCheckNodePort", hc)
					for _, d := range serviceDims {
						put(d.field, d.values[rnd.IntN(len(d.values))])
					}
					n++
					obj := map[string]any{"apiVersion": "v1", "kind": "Service",
						"metadata": map[string]any{"name": fmt.Sprintf("matrix-%d", n), "namespace": namespace}, "spec": spec}
					out = append(out, Case{Seed: fmt.Sprintf("service matrix round %d", round), Op: "service", Mutation: strings.Join(desc, " "), Doc: document(obj)})
				}
			}
		}
	}
	return slices.Clip(out)
}

// short writes a value in a case's description.
func short(v any) string {
	s := fmt.Sprint(v)
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}
