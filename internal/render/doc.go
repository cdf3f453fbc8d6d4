// Package render turns the templates of one task into Kubernetes objects
// for one instance: it executes the templates with KUDO's variables
// (.OperatorName .Name .Namespace .AppVersion .OperatorVersion .PlanName
// .PhaseName .StepName .Params .Pipes), splits the output into objects,
// and builds the Job that stands in for a Pipe task's pod.
//
// Templates are parsed once per bundle and executed for every step that
// uses them. The package does not decide when a task runs (package plan
// does) nor touch labels and annotations (package enhance does).
package render
