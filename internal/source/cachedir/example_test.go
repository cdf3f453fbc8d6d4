package cachedir_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kudo-render/kudo-render/internal/source/cachedir"
)

func ExampleLock() {
	dir, _ := os.MkdirTemp("", "cachedir")
	defer os.RemoveAll(dir)
	unlock, err := cachedir.Lock(context.Background(), filepath.Join(dir, "0123abcd.lock"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// ... fill the entry in tmp/, rename it into place ...
	unlock()
	fmt.Println("written once")
	// Output: written once
}
