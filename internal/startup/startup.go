package startup

import "runtime/debug"

// gcPercent is the collector's setting when the process started.
var gcPercent = debug.SetGCPercent(-1)

// Done gives the collector back its setting (GOGC, default 100), once the
// packages are initialised; main calls it first.
func Done() { debug.SetGCPercent(gcPercent) }
