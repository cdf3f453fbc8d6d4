// Package migrate imports a live KUDO install into a GitOps repository:
// it reads the kudo.dev/v1beta1 Instance, OperatorVersion and Operator
// objects that `kubectl get instances,operatorversions,operators -A -o
// yaml` prints (Parse), and lays out one kudorender.dev/v1alpha1
// FrameworkRender per Instance with the parameters that differ from the
// package's defaults, the package (found in a folder of packages or
// rebuilt from the OperatorVersion) and an Argo CD Application or a Flux
// Kustomization (Import). Instances that KudoOperator tasks created are
// rendered by their parent and get no application of their own.
//
// It reads unstructured maps (KUDO's Go types are not a dependency) and
// never writes: Import returns the files, which the caller writes all or
// nothing.
package migrate
