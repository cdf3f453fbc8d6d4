package visible_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/visible"
)

func ExampleEscape() {
	fmt.Println(visible.Escape("db-config"))
	fmt.Println(visible.Escape("db\r### injected heading"))
	fmt.Println(visible.Escape("\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\"))
	// Output:
	// db-config
	// db\r### injected heading
	// \x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\
}
