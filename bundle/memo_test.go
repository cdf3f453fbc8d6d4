package bundle_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestMemo: a value is computed once per bundle, whatever the number of
// callers at once; another bundle gets its own; an error is not kept.
func TestMemo(t *testing.T) {
	var m bundle.Memo[string]
	var calls atomic.Int32
	derive := func(b *bundle.Bundle) (string, error) {
		calls.Add(1)
		return b.Name + "!", nil
	}
	a, b := &bundle.Bundle{Name: "a"}, &bundle.Bundle{Name: "b"}
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			v, err := m.Get(a, derive)
			assert.NilError(t, err)
			assert.Equal(t, v, "a!")
		})
	}
	wg.Wait()
	assert.Equal(t, calls.Load(), int32(1))
	v, _ := m.Get(b, derive)
	assert.Equal(t, v, "b!")
	assert.Equal(t, calls.Load(), int32(2))

	c := &bundle.Bundle{Name: "c"}
	_, err := m.Get(c, func(*bundle.Bundle) (string, error) { return "", errors.New("over budget") })
	assert.Error(t, err, "over budget")
	v, err = m.Get(c, derive)
	assert.NilError(t, err)
	assert.Equal(t, v, "c!")
}
