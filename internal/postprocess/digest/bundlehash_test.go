package digest

import (
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestBundleHash: an input digest begun from the bundle's hash is the
// input digest, for every instance of the bundle; another bundle's hash
// gives another digest.
func TestBundleHash(t *testing.T) {
	b := &bundle.Bundle{Name: "x", Version: "1", Templates: map[string][]byte{"a.yaml": []byte("a <b> & \u2028")},
		Params: []*bundle.Param{{Name: "P", Default: map[string]any{"k": []any{1, "v"}}}}}
	h, err := HashBundle(b)
	assert.NilError(t, err)
	for _, in := range []Input{
		{Bundle: b, Instance: "i", Namespace: "n", Plans: []string{"deploy"}, Params: map[string]any{"A": "1", "B": []any{"2"}}},
		{Bundle: b, Instance: "j", Namespace: "n", Target: "flux", Extra: map[string]string{"pipe.k": "s"}},
		{Bundle: b},
	} {
		want, err := InputDigest(in)
		assert.NilError(t, err)
		got, err := h.InputDigest(in)
		assert.NilError(t, err)
		assert.Equal(t, got, want, "%+v", in)
	}
	other, err := HashBundle(&bundle.Bundle{Name: "x", Version: "2"})
	assert.NilError(t, err)
	d1, _ := h.InputDigest(Input{Instance: "i"})
	d2, _ := other.InputDigest(Input{Instance: "i"})
	assert.Assert(t, d1 != d2)
}
