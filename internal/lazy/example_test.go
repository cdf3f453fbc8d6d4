package lazy_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/lazy"
)

var version = lazy.Regexp(`^v(\d+)$`)

func ExampleRegexp() {
	fmt.Println(version().FindStringSubmatch("v12")[1])
	// Output: 12
}
