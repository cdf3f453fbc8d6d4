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
//	internal/test/kubetest/install.sh   # prints the folder; 10 to 20 minutes, once
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
// Tests that delete owners and expect their dependents to go need the
// garbage collector, which runs in kube-controller-manager, not in the API
// server. StartWithGC returns the same server with kube-controller-manager
// running its garbage collector and namespace controller (nothing else:
// no Deployment makes ReplicaSets, no Pod is scheduled), started on the
// first call (a fraction of a second) and connected as the administrator:
//
//	srv := kubetest.StartWithGC(t) // after applying the owners' CRDs
//	// create an owner and dependents with srv.Config's clients, delete
//	// the owner: the dependents are gone within a second
//
// The garbage collector watches the resources served when it started and
// discovers new ones every 30 seconds only; StartWithGC restarts it when
// the server serves resources it does not know, so call it after
// applying the CustomResourceDefinitions of the owners. Only StartWithGC
// needs kube-controller-manager in the assets folder (install.sh builds
// it too; envtest's assets lack it): without it, StartWithGC skips or
// fails the test as Start does.
//
// StartWithControllers runs more of kube-controller-manager's controllers
// beside those, for tests that need what they do (the day-two test: the
// StatefulSet controller makes claims, the volume binder binds them);
// ResourceOf and Dynamic give such tests clients that change the cluster
// for real.
//
// The processes are started with a parent-death signal (Linux), so they
// end with the test binary even when it is killed.
package kubetest
