package kubetest

import (
	"slices"
	"strings"
	"testing"
)

// StartWithControllers is StartWithGC with more of kube-controller-manager's
// controllers running, named as its --controllers flag names them
// ("statefulset-controller", "persistentvolume-binder-controller", ...):
// for tests that need what they do (a StatefulSet's claims created, claims
// bound to volumes). kube-controller-manager is restarted when it does
// not run them all yet; the set only grows, for the rest of the test
// process. Pods are still never scheduled: no kube-scheduler runs.
func StartWithControllers(tb testing.TB, controllers ...string) *Server {
	tb.Helper()
	s := Start(tb)
	s.gc.Lock()
	have := strings.Split(strings.TrimPrefix(s.gcWants, ","), ",")
	for _, c := range controllers {
		if !slices.Contains(have, c) && !strings.Contains(","+gcControllers+",", ","+c+",") {
			s.gcWants += "," + c
		}
	}
	s.gc.Unlock()
	return StartWithGC(tb)
}
