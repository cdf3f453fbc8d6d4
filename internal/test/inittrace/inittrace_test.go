package inittrace

import (
	"testing"

	"gotest.tools/v3/assert"
)

func TestParse(t *testing.T) {
	trace := []byte(`init internal/bytealg @0.008 ms, 0 ms clock, 0 bytes, 0 allocs
some other line
init github.com/santhosh-tekuri/jsonschema/v6 @22 ms, 9.5 ms clock, 1701216 bytes, 21285 allocs
init k8s.io/kubernetes/pkg/features @80 ms, 2.1 ms clock, 550160 bytes, 6894 allocs
`)
	inits := Parse(trace)
	assert.DeepEqual(t, inits, []Init{
		{Package: "internal/bytealg", Ms: 0, Bytes: 0, Allocs: 0},
		{Package: "github.com/santhosh-tekuri/jsonschema/v6", Ms: 9.5, Bytes: 1701216, Allocs: 21285},
		{Package: "k8s.io/kubernetes/pkg/features", Ms: 2.1, Bytes: 550160, Allocs: 6894},
	})
	tot := Total(inits)
	assert.Equal(t, tot.Bytes, int64(2251376))
	assert.Equal(t, tot.Allocs, int64(28179))
	top := Heaviest(inits, 2)
	assert.Equal(t, len(top), 2)
	assert.Equal(t, top[0].Package, "github.com/santhosh-tekuri/jsonschema/v6")
	assert.Equal(t, top[1].Package, "k8s.io/kubernetes/pkg/features")
}
