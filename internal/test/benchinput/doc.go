// Package benchinput generates the inputs of kudo-render's performance
// rows (docs/performance.md), shared by the benchmarks, the byte-identity
// test of cmd and the bench-compare program: ResourceLists of zookeeper
// Instance items and of small ConfigMaps, and a package whose one
// template renders many documents.
package benchinput
