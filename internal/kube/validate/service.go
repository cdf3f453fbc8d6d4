package validate

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	apiservice "k8s.io/kubernetes/pkg/api/service"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// The node port range of kube-apiserver's default flags
// (--service-node-port-range 30000-32767): a Service's nodePort and
// healthCheckNodePort outside it are refused by a create. A cluster
// started with another range may accept them; every common one keeps the
// default.
const (
	nodePortBase = 30000
	nodePortSize = 2768
)

// validateService does what the Service REST does before the strategy
// validates a create (k8s.io/kubernetes/pkg/registry/core/service/
// storage: beginCreate), as far as it depends on the object only, then
// validates:
//
//   - clusterIP alone fills clusterIPs (normalizeClusterIPs);
//   - ipFamilyPolicy defaults to SingleStack, RequireDualStack for a
//     headless Service without selector, and ipFamilies to the families
//     of the clusterIPs given (initIPFamilyFields; which families the
//     cluster serves is its configuration: not checked);
//   - node ports are allocated for NodePort and LoadBalancer Services
//     (initNodePorts: a nodePort given must lie in the default range and
//     not be taken twice; ports of one port number share theirs), and a
//     healthCheckNodePort for a LoadBalancer whose externalTrafficPolicy
//     is Local (allocHealthCheckNodePort), so that validation finds it.
//
// Cluster IPs are not allocated: validation accepts a Service without
// one, and a cluster IP given is checked against the cluster's service
// range only by the cluster.
func validateService(_ context.Context, o runtime.Object) field.ErrorList {
	svc := o.(*core.Service)
	if svc.Spec.ClusterIP != "" && len(svc.Spec.ClusterIPs) == 0 {
		svc.Spec.ClusterIPs = []string{svc.Spec.ClusterIP}
	}
	errs := initIPFamilies(svc)
	ports := &nodePorts{taken: map[int]bool{}}
	errs = append(errs, ports.allocate(svc)...)
	return append(errs, corevalidation.ValidateServiceCreate(svc)...)
}

// initIPFamilies defaults ipFamilyPolicy and infers ipFamilies from the
// cluster IPs given, as initIPFamilyFields does on a create, refusing two
// cluster IPs or families for a single-stack Service.
func initIPFamilies(svc *core.Service) field.ErrorList {
	if svc.Spec.Type == core.ServiceTypeExternalName {
		return nil
	}
	if svc.Spec.IPFamilyPolicy == nil {
		p := core.IPFamilyPolicySingleStack
		if svc.Spec.ClusterIP == core.ClusterIPNone && len(svc.Spec.Selector) == 0 {
			p = core.IPFamilyPolicyRequireDualStack
		}
		svc.Spec.IPFamilyPolicy = &p
	}
	if errs := corevalidation.ValidateServiceClusterIPsRelatedFields(svc, nil); len(errs) > 0 {
		return nil // the strategy's validation reports them
	}
	if *svc.Spec.IPFamilyPolicy == core.IPFamilyPolicySingleStack {
		var errs field.ErrorList
		p := field.NewPath("spec", "ipFamilyPolicy")
		if len(svc.Spec.ClusterIPs) == 2 {
			errs = append(errs, field.Invalid(p, svc.Spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"))
		}
		if len(svc.Spec.IPFamilies) == 2 {
			errs = append(errs, field.Invalid(p, svc.Spec.IPFamilyPolicy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"))
		}
		if len(errs) > 0 {
			return errs
		}
	}
	for i, ip := range svc.Spec.ClusterIPs {
		if ip == core.ClusterIPNone {
			break
		}
		if i >= len(svc.Spec.IPFamilies) {
			svc.Spec.IPFamilies = append(svc.Spec.IPFamilies, familyOf(ip))
		}
	}
	return nil
}

// familyOf is the family of a valid IP.
func familyOf(ip string) core.IPFamily {
	for _, c := range ip {
		if c == ':' {
			return core.IPv6Protocol
		}
	}
	return core.IPv4Protocol
}

// nodePorts allocates node ports in the default range for one Service.
type nodePorts struct {
	taken map[int]bool
	next  int
}

// take allocates a requested port.
func (n *nodePorts) take(port int) string {
	switch {
	case port < nodePortBase || port >= nodePortBase+nodePortSize:
		return fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %d-%d (kube-apiserver's default --service-node-port-range, which a cluster may set otherwise)",
			nodePortBase, nodePortBase+nodePortSize-1)
	case n.taken[port]:
		return "provided port is already allocated"
	}
	n.taken[port] = true
	return ""
}

// any allocates a free port: the lowest (the server draws one at random).
func (n *nodePorts) any() int32 {
	for n.taken[nodePortBase+n.next] {
		n.next++
	}
	n.taken[nodePortBase+n.next] = true
	return int32(nodePortBase + n.next)
}

// allocate gives a NodePort or LoadBalancer Service its node ports and a
// LoadBalancer with local traffic its health check port, as the Service
// REST's allocateCreate does: ports with the same port number share one
// node port, a requested one first.
func (n *nodePorts) allocate(svc *core.Service) field.ErrorList {
	var errs field.ErrorList
	if svc.Spec.Type == core.ServiceTypeNodePort || svc.Spec.Type == core.ServiceTypeLoadBalancer {
		allocate := svc.Spec.Type == core.ServiceTypeNodePort || svc.Spec.AllocateLoadBalancerNodePorts == nil || *svc.Spec.AllocateLoadBalancerNodePorts
		byPort := map[int32]int32{}
		for i := range svc.Spec.Ports {
			p := &svc.Spec.Ports[i]
			if p.NodePort == 0 && !allocate {
				continue
			}
			fld := field.NewPath("spec", "ports").Index(i).Child("nodePort")
			shared := byPort[p.Port]
			switch {
			case shared == 0:
				if np := requestedNodePort(p.Port, svc.Spec.Ports); np != 0 {
					if msg := n.take(int(np)); msg != "" {
						errs = append(errs, field.Invalid(fld, np, msg))
					}
					p.NodePort = np
				} else {
					p.NodePort = n.any()
				}
				byPort[p.Port] = p.NodePort
			case p.NodePort == 0:
				p.NodePort = shared
			case p.NodePort != shared:
				if msg := n.take(int(p.NodePort)); msg != "" {
					errs = append(errs, field.Invalid(fld, p.NodePort, msg))
				}
			}
		}
	}
	if apiservice.NeedsHealthCheck(svc) {
		if hc := svc.Spec.HealthCheckNodePort; hc != 0 {
			if msg := n.take(int(hc)); msg != "" {
				errs = append(errs, field.Invalid(field.NewPath("spec", "healthCheckNodePort"), hc, "failed to allocate the requested health check node port: "+msg))
			}
		} else {
			svc.Spec.HealthCheckNodePort = n.any()
		}
	}
	return errs
}

// requestedNodePort is the first nodePort given to a port of number port.
func requestedNodePort(port int32, ports []core.ServicePort) int32 {
	for _, p := range ports {
		if p.Port == port && p.NodePort != 0 {
			return p.NodePort
		}
	}
	return 0
}

// renderPorts are the node ports the Services of a render ask for, each
// with the first Service that asks: a later one is refused when applied
// ("provided port is already allocated"), whichever order the tool
// applies them in, one of the two is.
type renderPorts map[int64]*object.Object

// addService records the node ports a Service asks for.
func (rp renderPorts) addService(o *object.Object) {
	for _, np := range askedPorts(o) {
		if rp[np.port] == nil {
			rp[np.port] = o
		}
	}
}

// askedPort is a node port a Service gives, and where.
type askedPort struct {
	port  int64
	field *field.Path
}

// askedPorts are the node ports and health check port a NodePort or
// LoadBalancer Service gives.
func askedPorts(o *object.Object) []askedPort {
	if o.Kind() != "Service" || o.Group() != "" {
		return nil
	}
	spec, _ := o.Map["spec"].(map[string]any)
	typ, _ := spec["type"].(string)
	if typ != string(core.ServiceTypeNodePort) && typ != string(core.ServiceTypeLoadBalancer) {
		return nil
	}
	var out []askedPort
	ports, _ := spec["ports"].([]any)
	for i, p := range ports {
		p, _ := p.(map[string]any)
		if n, ok := number(p["nodePort"]); ok && n > 0 {
			out = append(out, askedPort{int64(n), field.NewPath("spec", "ports").Index(i).Child("nodePort")})
		}
	}
	if n, ok := number(spec["healthCheckNodePort"]); ok && n > 0 && typ == string(core.ServiceTypeLoadBalancer) {
		out = append(out, askedPort{int64(n), field.NewPath("spec", "healthCheckNodePort")})
	}
	return out
}

// taken refuses the node ports of Service o that another Service of the
// render asked for first.
func (rp renderPorts) taken(o *object.Object) field.ErrorList {
	var errs field.ErrorList
	for _, np := range askedPorts(o) {
		if first := rp[np.port]; first != nil && first != o {
			errs = append(errs, field.Invalid(np.field, np.port, fmt.Sprintf("provided port is already allocated: Service %s of the render asks for it too (one of the two is refused when applied)", objectName(first))))
		}
	}
	return errs
}

// objectName is "namespace/name", or the name of an object without
// namespace.
func objectName(o *object.Object) string {
	if o.Namespace() == "" {
		return o.Name()
	}
	return o.Namespace() + "/" + o.Name()
}
