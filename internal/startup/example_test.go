package startup_test

import (
	"fmt"
	"runtime/debug"

	"github.com/kudo-render/kudo-render/internal/startup"
)

func Example() {
	// The packages were initialised with the collector off.
	fmt.Println("off:", debug.SetGCPercent(-1) < 0)
	startup.Done()
	// main gave it back its setting (GOGC, default 100).
	fmt.Println("on:", debug.SetGCPercent(-1) >= 0)
	startup.Done()
	// Output:
	// off: true
	// on: true
}
