// Package kubetest runs a real Kubernetes API server for tests: etcd and
// kube-apiserver, started once per test process on 127.0.0.1, and applies
// rendered objects to it by server-side apply with dryRun=All, as Argo CD
// (ServerSideApply=true) and kubectl apply --server-side --dry-run=server
// do. It checks what no schema in this repository can: the server's
// defaulting, validation and admission, the schemas of a render's
// CustomResourceDefinitions, the API versions a release still serves.
// [StartWithGC] adds kube-controller-manager's garbage collector, for the
// tests that delete owners.
//
// The one thing to know: the binaries come from KUBEBUILDER_ASSETS, else
// from install.sh, which builds them once into the user's cache (10 to 20
// minutes) and prints the folder. Without them [Start] skips the test,
// naming install.sh, unless CI is set or KUDO_RENDER_REQUIRE_APISERVER=1:
// then it fails. A package's tests share one server, which its TestMain
// stops:
//
//	func TestMain(m *testing.M) { kubetest.Main(m) }
//
// docs/DEVELOPMENT.md says how the tests use it, and when to call
// StartWithGC (after applying the owners' CustomResourceDefinitions).
package kubetest
