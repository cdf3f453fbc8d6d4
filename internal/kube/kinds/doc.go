// Package kinds is kudo-render's one table of built-in Kubernetes kinds:
// their group, plural and short names and whether they are namespaced.
// Stages that need a kind's scope (enhance, the desired state's keys) or
// its names (references) read it here.
package kinds
