// Package kubetest runs a real Kubernetes API server for tests: etcd and
// kube-apiserver, started once per test process on 127.0.0.1, and applies
// rendered objects to it by server-side apply with dryRun=All, as Argo CD
// (ServerSideApply=true) and kubectl apply --server-side --dry-run=server
// do. The server checks what no schema in this repository can: defaulting,
// validation and admission of every built-in kind, the schemas of the
// CustomResourceDefinitions a render brings, and which API versions a
// Kubernetes release still serves.
//
// The binaries are those of KUBEBUILDER_ASSETS (as controller-runtime's
// envtest uses them), else those install.sh builds into the user's cache:
//
//	internal/kubetest/install.sh   # prints the folder; 10 to 20 minutes, once
//
// Without them Start skips the test, naming install.sh, unless CI is set
// or KUDO_RENDER_REQUIRE_APISERVER=1: then the test fails.
//
// A package's tests share one server; its TestMain stops it:
//
//	func TestMain(m *testing.M) { kubetest.Main(m) }
//
//	func TestRender(t *testing.T) {
//		srv := kubetest.Start(t)
//		results, err := srv.ApplyYAML(t.Context(), stream)
//		...
//	}
//
// The processes are started with a parent-death signal (Linux), so they
// end with the test binary even when it is killed.
package kubetest
