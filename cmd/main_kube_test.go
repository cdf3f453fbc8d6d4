package cmd

import (
	"testing"

	"github.com/kudo-render/kudo-render/internal/test/kubetest"
)

// TestMain stops the API server the adopt tests start (kubetest.Start is
// lazy: packages' tests that do not use it start nothing).
func TestMain(m *testing.M) { kubetest.Main(m) }
