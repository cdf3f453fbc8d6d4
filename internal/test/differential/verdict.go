package differential

import (
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kudo-render/kudo-render/internal/kube"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/kube/validate"
	"github.com/kudo-render/kudo-render/internal/kube/versions"
	"github.com/kudo-render/kudo-render/internal/render/tmpl"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
)

// Ours is kudo-render's verdict on a rendered YAML stream, as a render
// reaches it: the documents decoded as rendered templates are (duplicate
// keys, YAML 1.1 booleans), normalized (fields the API type lacks
// removed), converted from removed API versions, validated. It returns
// the objects a render would emit (nil when decoding refused them) and
// the reasons it refuses them, a diagnostic a line, "" when it renders
// them.
func Ours(stream []byte) (emit []map[string]any, refusal string) {
	docs, err := tmpl.Decode(&tmpl.Output{Name: "case.yaml", Text: stream})
	if err != nil {
		return nil, err.Error()
	}
	objs := make([]*object.Object, len(docs))
	for i, d := range docs {
		objs[i] = object.New(d.Map)
		objs[i].Bool11 = d.Bool11
	}
	if _, err := kube.Normalize(objs, kube.Options{}); err != nil {
		return nil, err.Error()
	}
	emit = make([]map[string]any, len(objs))
	for i, o := range objs {
		if _, err := versions.Convert(o, kubeversion.Default); err != nil {
			return nil, err.Error()
		}
		emit[i] = o.Map
	}
	var msgs []string
	for _, ds := range validate.Objects(objs, validate.Options{}) {
		for _, d := range ds {
			if !d.IsWarning() {
				msgs = append(msgs, d.Error())
			}
		}
	}
	return emit, strings.Join(msgs, "\n")
}

// A Class is a kind of disagreement that is no bug of kudo-render's: the
// server's verdict depends on the cluster, or the dry run the test asks
// for is laxer than the create it stands for.
type Class struct {
	Name, Reason string
	server       *regexp.Regexp // matches the server's refusal (kudo-render accepts)
	ours         *regexp.Regexp // matches each of kudo-render's refusals (the server accepts)
}

// classes are the disagreements that depend on the cluster, matched on
// the server's refusal when kudo-render accepts.
var classes = []Class{
	{Name: "service range", Reason: "a fixed cluster IP must lie in the cluster's service range (kube-apiserver --service-cluster-ip-range; ServiceCIDR objects), which differs between clusters",
		server: regexp.MustCompile(`(?i)not in the valid range|not within the range|is not in any of the configured service CIDRs|failed to allocate IP`)},
	{Name: "IP families", Reason: "which IP families a cluster serves (single or dual stack, IPv4 or IPv6) is its configuration",
		server: regexp.MustCompile(`(?i)not configured for dual-stack|ipFamilies\[\d\]: Invalid value: "IPv6": not configured|is not configured on this cluster`)},
	{Name: "allocated", Reason: "an IP or port another object of the cluster already holds",
		server: regexp.MustCompile(`(?i)already allocated|provided (IP|port) is already`)},
	{Name: "cluster objects", Reason: "an object the server looks up at admission (a ServiceAccount, a PriorityClass, a RuntimeClass, a namespace) exists only once the render is applied, or in the cluster",
		server: regexp.MustCompile(`(?i)error looking up service account|no PriorityClass with name|RuntimeClass ".*" not found|namespaces ".*" not found|because it is being terminated`)},
	{Name: "dry run", Reason: "a dry run does not check node ports against kube-apiserver's range (the port allocator only pretends); a real create refuses them, and so does kudo-render",
		ours: regexp.MustCompile(`nodePort: Invalid value: -?\d+: provided port is not in the valid range|healthCheckNodePort: Invalid value: -?\d+: failed to allocate the requested health check node port: provided port is not in the valid range`)},
	{Name: "namespace labels", Reason: "a namespace's labels are the cluster's: a DRA request with adminAccess needs resource.kubernetes.io/admin-access on its namespace",
		server: regexp.MustCompile(`admin access to devices requires the .resource.kubernetes.io/admin-access: true. label`)},
}

// notCheckedClass is the class of a disagreement on a kind whose own
// validation kudo-render does not run, by design (validate.NotChecked).
func notCheckedClass(kind, why string) *Class {
	return &Class{Name: "not checked: " + kind, Reason: why}
}

// Classify names the class of a disagreement about an object of gvk,
// kudo-render's and the server's refusals ours and theirs (one of them
// ""); nil when it is none: a bug.
func Classify(gvk schema.GroupVersionKind, ours, theirs string) *Class {
	if ours != "" {
		for i := range classes {
			if c := &classes[i]; c.ours != nil && allMatch(c.ours, ours) {
				return c
			}
		}
		return nil
	}
	if why := validate.NotChecked(gvk.GroupKind()); why != "" {
		return notCheckedClass(gvk.Kind, why)
	}
	for i := range classes {
		if c := &classes[i]; c.server != nil && c.server.MatchString(theirs) {
			return c
		}
	}
	return nil
}

// allMatch reports whether every refusal of a verdict (a diagnostic a
// line) matches re.
func allMatch(re *regexp.Regexp, verdict string) bool {
	for _, msg := range strings.Split(verdict, "\n") {
		if !re.MatchString(msg) {
			return false
		}
	}
	return true
}
