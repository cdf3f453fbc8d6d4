// Package flux is the Flux adapter: [Decorate] marks run-once objects so
// that Flux recreates them, and [Layout] lays a render out as folders of
// plain manifests, one per wave and plan step, with a flux/ folder of
// kustomize.toolkit.fluxcd.io/v1 Kustomizations chained by dependsOn, so
// Flux applies the plans in order.
package flux
