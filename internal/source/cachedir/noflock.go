//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package cachedir

import "context"

const hasFlock = false

func flockFile(ctx context.Context, path string) (func(), error) { return createLock(ctx, path) }
