package cmd

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
)

// kudoResources are the kudo.dev/v1beta1 resources import reads.
var kudoResources = []string{"instances", "operatorversions", "operators"}

// readCluster adds the KUDO objects of the cluster kubeconfig names
// (of namespace ns, or of all) to exp. It only lists: nothing is changed.
// Its requests end before the run's deadline (clusterBounds).
func readCluster(ctx context.Context, kubeconfig, ns string, deadline time.Time, exp *migrate.Export) error {
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: kubeconfig}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return fmt.Errorf("--kubeconfig %s: %w", kubeconfig, err)
	}
	bounds := clusterBounds{host: cfg.Host, deadline: deadline}
	bounds.bound(cfg)
	ctx, cancel := bounds.context(ctx)
	defer cancel()
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("--kubeconfig %s: %w", kubeconfig, err)
	}
	return listKUDO(ctx, dc, cfg.Host, ns, exp)
}

// listKUDO lists Instances, OperatorVersions and Operators, a page at a
// time, into exp.
func listKUDO(ctx context.Context, dc dynamic.Interface, host, ns string, exp *migrate.Export) error {
	for _, res := range kudoResources {
		gvr := schema.GroupVersionResource{Group: "kudo.dev", Version: "v1beta1", Resource: res}
		opts := metav1.ListOptions{Limit: 100}
		for {
			list, err := dc.Resource(gvr).Namespace(ns).List(ctx, opts)
			if err != nil {
				return fmt.Errorf("cannot list %s.kudo.dev on %s: %w", res, host, err)
			}
			for _, it := range list.Items {
				if it.GetKind() == "" { // list items may come without their type
					it.SetAPIVersion("kudo.dev/v1beta1")
					it.SetKind(kindOf(res))
				}
				if err := migrate.AddObject(host, it.Object, exp); err != nil {
					return err
				}
			}
			if opts.Continue = list.GetContinue(); opts.Continue == "" {
				break
			}
		}
	}
	return nil
}

func kindOf(resource string) string {
	switch resource {
	case "instances":
		return "Instance"
	case "operatorversions":
		return "OperatorVersion"
	}
	return "Operator"
}
