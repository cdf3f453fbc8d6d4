// Package graph draws one render of kudo-render for review: the order in
// which a package applies its objects, which the YAML stream only shows
// as annotations.
//
// [Build] turns the engine's items into a [Graph]: each instance a group
// (a KudoOperator dependency's group nested in its parent's), each wave a
// group inside it, in order and linked explicitly to the next wave (Mermaid
// does not keep the order of subgraphs), each step a group inside its
// wave, each object a node. Hooks are marked as running once; objects a
// Toggle task controls carry its parameter and state, and the objects of
// a Toggle that is off are drawn dashed where they would be; getValueFrom
// references are edges from the object that reads to the object read.
//
// [Graph.Mermaid] (renders inline in GitHub and GitLab markdown) and
// [Graph.DOT] (Graphviz) write it. Mermaid has practical limits (by default
// 50,000 characters and 500 edges): [Detail] Auto draws objects when they
// fit, otherwise counts of objects per kind in each step, otherwise one
// node per step, and says so in the picture. Node ids are derived from
// kind, namespace and name (stable across renders), labels are quoted, and
// everything comes in a deterministic order.
package graph
