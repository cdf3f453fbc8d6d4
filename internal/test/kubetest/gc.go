package kubetest

import (
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gcControllers are the controllers StartWithGC runs: the garbage
// collector, and the namespace and PVC protection controllers, without
// which a deleted namespace stays Terminating (a PVC keeps the
// kubernetes.io/pvc-protection finalizer).
const gcControllers = "garbage-collector-controller,namespace-controller,persistentvolumeclaim-protection-controller"

// StartWithGC returns the test process's API server, as Start does, with
// kube-controller-manager running its garbage collector (and namespace
// controller): deleting an owner deletes its dependents, as on a real
// cluster. kube-controller-manager is started on the first call and lives
// as long as the server.
//
// Its garbage collector watches the resources the server served when it
// started, and looks for new ones every 30 seconds only: a call that finds
// resources it does not know (CustomResourceDefinitions applied since)
// restarts it, in a fraction of a second. Apply the definitions of owners
// before calling StartWithGC. (A test that relies on the collector while
// another restarts it loses nothing: the new one finds what is left to
// collect.)
//
// A test is skipped (or fails, as in Start) when the assets folder has no
// kube-controller-manager, naming install.sh.
func StartWithGC(tb testing.TB) *Server {
	tb.Helper()
	assets, ok := Assets()
	if ok && !executable(filepath.Join(assets, "kube-controller-manager")) {
		msg := fmt.Sprintf("no kube-controller-manager in %s, for garbage collection: run internal/test/kubetest/install.sh (or make kube-assets), which builds it once (10 to 20 minutes), or set %s to a folder that holds it with kube-apiserver and etcd", assets, AssetsEnvVar)
		if required() {
			tb.Fatal(msg + "; the API server tests are required here (CI or " + RequireEnvVar + "=1)")
		}
		tb.Skip(msg)
	}
	s := Start(tb) // skips without kube-apiserver and etcd
	if err := s.ensureGC(assets); err != nil {
		tb.Fatalf("starting kube-controller-manager from %s: %v", assets, err)
	}
	return s
}

// GCStartTime is how long kube-controller-manager took to start the last
// time StartWithGC started it, until its garbage collector had started;
// zero before.
func (s *Server) GCStartTime() time.Duration {
	s.gc.Lock()
	defer s.gc.Unlock()
	return s.gcStart
}

// RestartGC is StartWithGC with kube-controller-manager restarted even
// when the server serves no resource it does not know: for CRDs deleted
// and created again, whose resources its collector stopped watching.
func RestartGC(tb testing.TB) *Server {
	tb.Helper()
	s := StartWithGC(tb)
	assets, _ := Assets()
	s.gc.Lock()
	s.gcKnows = nil
	s.gc.Unlock()
	if err := s.ensureGC(assets); err != nil {
		tb.Fatalf("restarting kube-controller-manager from %s: %v", assets, err)
	}
	return s
}

// ensureGC starts kube-controller-manager, or restarts it when the server
// serves resources it did not when it started. A failed start is not
// retried.
func (s *Server) ensureGC(assets string) error {
	s.gc.Lock()
	defer s.gc.Unlock()
	if s.gcErr != nil {
		return s.gcErr
	}
	served, err := s.servedResources()
	if err != nil {
		return fmt.Errorf("discovery: %w", err)
	}
	if s.gcProc != nil && s.gcKnows != nil && !hasNew(served, s.gcKnows) && s.gcRuns == s.gcWants {
		return nil
	}
	if s.gcProc != nil {
		s.gcProc.kill()
		s.procs = slices.DeleteFunc(s.procs, func(p *process) bool { return p == s.gcProc })
		s.gcProc = nil
	}
	t0 := time.Now()
	if s.gcProc, s.gcErr = s.startControllerManager(assets); s.gcErr != nil {
		return s.gcErr
	}
	s.gcStart = time.Since(t0)
	s.gcKnows = served
	s.gcRuns = s.gcWants
	return nil
}

// servedResources lists the server's resources, as group/version/resource,
// subresources left out.
func (s *Server) servedResources() (map[string]bool, error) {
	_, lists, err := s.discovery.ServerGroupsAndResourcesWithContext(context.Background())
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, l := range lists {
		for _, r := range l.APIResources {
			if !strings.Contains(r.Name, "/") {
				out[l.GroupVersion+"/"+r.Name] = true
			}
		}
	}
	return out, nil
}

// hasNew reports whether served has a resource known lacks.
func hasNew(served, known map[string]bool) bool {
	for r := range served {
		if !known[r] {
			return true
		}
	}
	return false
}

// startControllerManager starts kube-controller-manager, connected as the
// administrator, and waits until its /healthz reports the garbage
// collector started.
func (s *Server) startControllerManager(assets string) (*process, error) {
	kubeconfig, err := s.writeKubeconfig()
	if err != nil {
		return nil, err
	}
	ports, err := freePorts(1)
	if err != nil {
		return nil, err
	}
	port := strconv.Itoa(ports[0])
	kcm, err := s.run(filepath.Join(assets, "kube-controller-manager"),
		"--kubeconfig="+kubeconfig,
		"--controllers="+gcControllers+s.gcWants,
		"--leader-elect=false",
		// the controllers act as the administrator, not as service
		// accounts of their own (no token controller runs)
		"--use-service-account-credentials=false",
		"--bind-address=127.0.0.1",
		"--secure-port="+port, // 0 would turn /healthz off
		"--cert-dir="+filepath.Join(s.dir, "kcm-certs"),
		// /healthz is always allowed; nothing else is served to clients
		"--authentication-skip-lookup=true",
		// the garbage collector lists and watches every resource at
		// start: without the default limit of 20 requests a second
		"--kube-api-qps=1000",
		"--kube-api-burst=1000",
		"--profiling=false",
	)
	if err != nil {
		return nil, err
	}
	insecure := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	// A controller's check is added to /healthz once it has started.
	return kcm, waitFor(kcm, insecure, "https://127.0.0.1:"+port+"/healthz?verbose", "", "[+]garbage-collector-controller ok")
}

// writeKubeconfig writes a kubeconfig of the administrator's token, which
// trusts the certificate kube-apiserver made, and returns its file.
func (s *Server) writeKubeconfig() (string, error) {
	file := filepath.Join(s.dir, "kubeconfig")
	config := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kubetest
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: admin
  user:
    token: %s
contexts:
- name: kubetest
  context:
    cluster: kubetest
    user: admin
current-context: kubetest
`, strconv.Quote(s.URL), strconv.Quote(filepath.Join(s.dir, "certs", "apiserver.crt")), strconv.Quote(s.Config.BearerToken))
	return file, os.WriteFile(file, []byte(config), 0o600)
}
