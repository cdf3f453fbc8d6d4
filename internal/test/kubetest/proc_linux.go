package kubetest

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr makes a child die with the thread that started it (see
// startLauncher), so a killed test binary leaves no etcd or
// kube-apiserver behind.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// dataBase is where the server's folder goes: in memory (/dev/shm), where
// etcd's fsyncs cost nothing, when it has room for etcd's preallocated
// files (a container's /dev/shm is often 64 MiB); else the temporary
// folder.
func dataBase() string {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/dev/shm", &st); err == nil && st.Bavail*uint64(st.Bsize) >= 1<<30 && writable("/dev/shm") {
		return "/dev/shm"
	}
	return os.TempDir()
}

// alive reports whether a process exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
