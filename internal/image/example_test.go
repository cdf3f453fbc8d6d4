package image_test

import (
	"fmt"
	"slices"
	"time"

	"github.com/kudo-render/kudo-render/internal/image"
)

// The labels of a release image: what `docker inspect` and registries show.
func ExampleLabels() {
	l := image.Labels(image.Options{
		Version:  "v1.2.3",
		Revision: "0123456789abcdef0123456789abcdef01234567",
		Source:   "https://github.com/kudo-render/kudo-render",
		Created:  time.Unix(1795651132, 0),
	})
	var keys []string
	for k := range l {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Printf("%s=%s\n", k, l[k])
	}
	// Output:
	// org.opencontainers.image.created=2026-11-25T23:58:52Z
	// org.opencontainers.image.licenses=Apache-2.0
	// org.opencontainers.image.revision=0123456789abcdef0123456789abcdef01234567
	// org.opencontainers.image.source=https://github.com/kudo-render/kudo-render
	// org.opencontainers.image.title=kudo-render
	// org.opencontainers.image.version=v1.2.3
}
