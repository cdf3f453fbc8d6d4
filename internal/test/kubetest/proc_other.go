//go:build !linux

package kubetest

import (
	"os"
	"syscall"
)

// sysProcAttr: only Linux has a parent-death signal; elsewhere Main stops
// the processes.
func sysProcAttr() *syscall.SysProcAttr { return nil }

func dataBase() string { return os.TempDir() }

// alive: the folders of other test processes are left alone.
func alive(int) bool { return true }
