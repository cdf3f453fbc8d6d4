// Package enhance post-processes rendered objects the way KUDO's
// DefaultEnhancer did, without a cluster:
//
//   - labels heritage: kudo, kudo.dev/operator and kudo.dev/instance on every
//     object and on pod templates, volumeClaimTemplates and CronJob job
//     templates;
//   - annotations kudo.dev/plan, kudo.dev/phase and kudo.dev/step on every
//     object, kudo.dev/operator-version on pod templates;
//   - namespaced kinds forced into the instance namespace, cluster-scoped
//     kinds without one (KUDO left a namespace there). Cluster-scoped
//     kinds are the built-in Kubernetes ones plus the kinds of
//     CustomResourceDefinitions in the same output with spec.scope Cluster;
//   - kudo.dev/dependencies-hash on pod templates, computed from the
//     ConfigMaps and Secrets of the same output that the pod uses, so pods
//     roll when their configuration changes;
//   - provenance: kudorender.dev/source (framework name@version) and
//     kudorender.dev/template (the template's path in the bundle).
//
// There are no owner references and no UIDs: there is no Instance object.
package enhance
