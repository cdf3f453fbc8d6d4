package oci_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/source/oci"
	"github.com/kudo-render/kudo-render/internal/source/oci/ocitest"
)

// Push a package folder in Flux's format, then open it by tag (resolved to
// its digest) as a render would.
func Example() {
	reg := ocitest.New()
	defer reg.Close()
	cache, _ := os.MkdirTemp("", "oci-example")
	defer os.RemoveAll(cache)
	src, _ := oci.New(oci.Options{CacheDir: cache})
	pushed, err := src.Push(context.Background(), "../../../examples/toggle", reg.URL+"/pkgs/toggle:v1", oci.PushOptions{Format: "flux"})
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := src.Open(context.Background(), bundle.OCISource{URL: reg.URL + "/pkgs/toggle", Tag: "v1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer op.Close()
	data, _ := os.ReadFile(cache + "/sha256/" + strings.TrimPrefix(pushed.Digest.String(), "sha256:") + "/tree/operator.yaml")
	fmt.Println(op.Pin == pushed.Digest.String(), strings.Contains(string(data), "name: webapp"))
	fmt.Println(oci.Loopback(reg.Host), oci.Loopback("registry.example:443"))
	// Output:
	// true true
	// true false
}
