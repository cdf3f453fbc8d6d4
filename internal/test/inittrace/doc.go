// Package inittrace reads what GODEBUG=inittrace=1 prints: the clock time
// and the allocations of each package's initialiser, which Go runs before
// main in every process. The start-up budget (TestStartupWeight in the
// root package) and the weight report (internal/test/weight) read it.
package inittrace
