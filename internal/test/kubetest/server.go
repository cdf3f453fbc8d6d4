package kubetest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
)

// startTimeout bounds the start of etcd and kube-apiserver, on a machine
// that may be compiling other test packages at the same time.
const startTimeout = 2 * time.Minute

// Server is a running etcd and kube-apiserver.
type Server struct {
	// URL is the API server's address, https://127.0.0.1:PORT.
	URL string
	// Config is a client configuration for an administrator (group
	// system:masters, by a bearer token), without client-side rate limit.
	Config *rest.Config
	// Version is the server's version, as /version reports it (v1.37.2).
	Version string
	// StartTime is how long etcd and kube-apiserver took to start, until
	// /readyz answered ok.
	StartTime time.Duration

	dir      string // data, certificates, keys and logs; removed by stop
	launcher chan launch
	procs    []*process

	dynamic    dynamic.Interface
	discovery  *discovery.DiscoveryClient
	mapper     *restmapper.DeferredDiscoveryRESTMapper
	defaults   []schema.GroupVersionKind // served before anything was applied
	builtin    map[schema.GroupKind]bool // the group-kinds of defaults
	setup      sync.Mutex                // CRDs, namespaces and the mapper, one Apply at a time
	namespaces map[string]bool           // made by ensureNamespace, under setup

	gc      sync.Mutex      // kube-controller-manager, started by StartWithGC
	gcProc  *process        // nil until started
	gcKnows map[string]bool // the resources served when it started
	gcErr   error           // its start failed
	gcStart time.Duration   // how long its last start took
	gcWants string          // more controllers asked for (",name,name"), see StartWithControllers
	gcRuns  string          // the more controllers it runs
}

var (
	once     sync.Once
	shared   *Server
	startErr error
)

// Start returns the test process's API server, starting it on first use.
// It skips the test when the binaries are missing (see Assets), naming
// install.sh, or fails it when CI is set or KUDO_RENDER_REQUIRE_APISERVER=1.
// The server lives until Main stops it, or until the test process ends.
func Start(tb testing.TB) *Server {
	tb.Helper()
	assets, ok := Assets()
	if !ok {
		msg := fmt.Sprintf("no kube-apiserver and etcd in %s: run internal/test/kubetest/install.sh (or make kube-assets), which builds them once (10 to 20 minutes), or set %s to a folder that holds them", assets, AssetsEnvVar)
		if required() {
			tb.Fatal(msg + "; the API server tests are required here (CI or " + RequireEnvVar + "=1)")
		}
		tb.Skip(msg)
	}
	once.Do(func() { shared, startErr = start(assets) })
	if startErr != nil {
		tb.Fatalf("starting the API server from %s: %v", assets, startErr)
	}
	return shared
}

// Main runs a package's tests and then stops the API server if a test
// started it. Call it from TestMain:
//
//	func TestMain(m *testing.M) { kubetest.Main(m) }
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the API server if a test started it: for a TestMain that
// does more after its tests than Main does.
func Stop() {
	if shared != nil {
		shared.stop()
	}
}

// process is one child process.
type process struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{} // closed when it has exited
}

// launch asks the launcher's thread to start a command.
type launch struct {
	cmd  *exec.Cmd
	errc chan error
}

// startLauncher starts the goroutine that starts the child processes. It
// keeps its OS thread locked until stop: the children's parent-death
// signal is sent when the thread that started them ends, not the process.
func (s *Server) startLauncher() {
	s.launcher = make(chan launch)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		for l := range s.launcher {
			l.errc <- l.cmd.Start()
		}
	}()
}

func (s *Server) run(name string, args ...string) (*process, error) {
	p := &process{name: filepath.Base(name), log: filepath.Join(s.dir, filepath.Base(name)+".log"), done: make(chan struct{})}
	logf, err := os.Create(p.log)
	if err != nil {
		return nil, err
	}
	defer logf.Close() // the child has its own descriptor
	p.cmd = exec.Command(name, args...)
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	p.cmd.SysProcAttr = sysProcAttr()
	errc := make(chan error)
	s.launcher <- launch{p.cmd, errc}
	if err := <-errc; err != nil {
		return nil, err
	}
	s.procs = append(s.procs, p)
	go func() {
		p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// logTail is the end of a process's output, for errors.
func (p *process) logTail() string {
	data, _ := os.ReadFile(p.log)
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 25 {
		lines = lines[len(lines)-25:]
	}
	return fmt.Sprintf("last lines of %s's output:\n%s", p.name, strings.Join(lines, "\n"))
}

func start(assets string) (_ *Server, err error) {
	t0 := time.Now()
	base := dataBase()
	removeStale(base)
	dir, err := os.MkdirTemp(base, dirPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir}
	s.startLauncher()
	defer func() {
		if err != nil {
			s.stop()
		}
	}()
	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	s.URL = "https://127.0.0.1:" + strconv.Itoa(ports[2])
	token, saKey, err := s.credentials()
	if err != nil {
		return nil, err
	}
	etcdURL, err := s.startEtcd(assets, ports[0], ports[1])
	if err != nil {
		return nil, err
	}
	if err := s.startAPIServer(assets, etcdURL, ports[2], token, saKey); err != nil {
		return nil, err
	}
	if err := s.connect(token); err != nil {
		return nil, err
	}
	s.StartTime = time.Since(t0)
	return s, nil
}

// credentials writes the static token file of an administrator (group
// system:masters) and a service-account signing key, and returns the
// token and the key's file.
func (s *Server) credentials() (token, keyFile string, err error) {
	if token, err = randomHex(16); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(s.dir, "tokens.csv"), []byte(token+",kudo-render-admin,kudo-render-admin,system:masters\n"), 0o600); err != nil {
		return "", "", err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", err
	}
	keyFile = filepath.Join(s.dir, "service-account.key")
	return token, keyFile, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), 0o600)
}

// startEtcd starts a single-member etcd and waits until it is healthy.
func (s *Server) startEtcd(assets string, clientPort, peerPort int) (clientURL string, err error) {
	clientURL = "http://127.0.0.1:" + strconv.Itoa(clientPort)
	peerURL := "http://127.0.0.1:" + strconv.Itoa(peerPort)
	etcd, err := s.run(filepath.Join(assets, "etcd"),
		"--name=kubetest",
		"--data-dir="+filepath.Join(s.dir, "etcd"),
		"--listen-client-urls="+clientURL,
		"--advertise-client-urls="+clientURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=kubetest="+peerURL,
		// a single member elects itself after one election timeout: 100 ms
		// instead of a second
		"--heartbeat-interval=10",
		"--election-timeout=100",
	)
	if err != nil {
		return "", err
	}
	return clientURL, waitFor(etcd, &http.Client{Timeout: 2 * time.Second}, clientURL+"/health", "", `"health":"true"`)
}

// startAPIServer starts kube-apiserver and waits until /readyz is ok.
func (s *Server) startAPIServer(assets, etcdURL string, port int, token, saKey string) error {
	api, err := s.run(filepath.Join(assets, "kube-apiserver"),
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(port),
		"--cert-dir="+filepath.Join(s.dir, "certs"),
		"--service-cluster-ip-range=10.0.0.0/24",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file="+saKey,
		"--service-account-signing-key-file="+saKey,
		"--token-auth-file="+filepath.Join(s.dir, "tokens.csv"),
		"--authorization-mode=RBAC",
		// as on every real cluster (kubeadm, EKS, GKE, AKS): privileged
		// containers are for admission policies to refuse, not the API.
		"--allow-privileged=true",
		"--endpoint-reconciler-type=none",
		"--profiling=false",
	)
	if err != nil {
		return err
	}
	insecure := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	return waitFor(api, insecure, s.URL+"/readyz", token, "ok")
}

// connect builds the clients, trusting the certificate kube-apiserver
// made, and reads what a fresh server serves.
func (s *Server) connect(token string) error {
	// The serving certificate, followed by the CA that signed it.
	ca, err := os.ReadFile(filepath.Join(s.dir, "certs", "apiserver.crt"))
	if err != nil {
		return err
	}
	s.Config = &rest.Config{
		Host:            s.URL,
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{CAData: ca},
		QPS:             -1, // no client-side rate limit
		UserAgent:       "kudo-render-kubetest",
		Timeout:         time.Minute,

		WarningHandlerWithContext: warningCollector{},
	}
	if s.dynamic, err = dynamic.NewForConfig(s.Config); err != nil {
		return err
	}
	if s.discovery, err = discovery.NewDiscoveryClientForConfig(s.Config); err != nil {
		return err
	}
	v, err := s.discovery.ServerVersion()
	if err != nil {
		return err
	}
	s.Version = v.GitVersion
	s.mapper = restmapper.NewDeferredDiscoveryRESTMapperWithContext(memory.NewMemCacheClientWithContext(s.discovery))
	if s.defaults, err = s.ServedKinds(context.Background()); err != nil {
		return err
	}
	s.builtin = map[schema.GroupKind]bool{}
	for _, gvk := range s.defaults {
		s.builtin[gvk.GroupKind()] = true
	}
	return nil
}

// waitFor polls url until its body holds want, the process exits or
// startTimeout passes.
func waitFor(p *process, c *http.Client, url, token, want string) error {
	deadline := time.Now().Add(startTimeout)
	var last string
	for {
		select {
		case <-p.done:
			return fmt.Errorf("%s exited at start (%v); %s", p.name, p.cmd.ProcessState, p.logTail())
		default:
		}
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := c.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(string(body), want) {
				return nil
			}
			last = fmt.Sprintf("%s: %s", resp.Status, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %v (%s: %s); %s", p.name, startTimeout, url, last, p.logTail())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop kills the processes, ends the launcher's thread and removes the
// server's folder.
func (s *Server) stop() {
	for i := len(s.procs) - 1; i >= 0; i-- { // kube-controller-manager, kube-apiserver, etcd
		s.procs[i].kill()
	}
	s.procs = nil
	if s.launcher != nil {
		close(s.launcher)
		s.launcher = nil
	}
	os.RemoveAll(s.dir)
}

// kill kills a process and waits (10 seconds at most) until it has
// exited.
func (p *process) kill() {
	p.cmd.Process.Kill()
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
	}
}

// freePorts returns n distinct free TCP ports of 127.0.0.1.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// dirPrefix starts the name of a server's folder, followed by the test
// process's id.
const dirPrefix = "kudo-render-kubetest-"

// removeStale removes the folders of test processes that were killed
// before they could remove them.
func removeStale(base string) {
	dirs, _ := filepath.Glob(filepath.Join(base, dirPrefix+"*"))
	for _, d := range dirs {
		pid, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(d), dirPrefix), "-")
		if n, err := strconv.Atoi(pid); err == nil && n > 0 && n != os.Getpid() && !alive(n) {
			os.RemoveAll(d)
		}
	}
}

// writable reports whether a file can be created in dir.
func writable(dir string) bool {
	f, err := os.CreateTemp(dir, ".kubetest-")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}
