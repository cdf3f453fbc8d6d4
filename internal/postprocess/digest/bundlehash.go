package digest

import (
	"bytes"
	"crypto/sha256"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/kudo-render/kudo-render/bundle"
)

// BundleHash is an InputDigest begun: the SHA-256 state after the
// bundle's part of an Input's JSON (its first field). The inputs of every
// instance of one package start from it, so the package, however large,
// is encoded and hashed once, not once per instance.
type BundleHash struct {
	state []byte // sha256's marshalled state, never changed
}

// bundlePrefix is how an Input's JSON begins, up to its bundle.
var bundlePrefix = []byte(`{"Bundle":`)

// HashBundle begins the input digests of b.
func HashBundle(b *bundle.Bundle) (*BundleHash, error) {
	data, err := json.Marshal(b)
	if err != nil {
		return nil, fmt.Errorf("cannot digest the render's input: %w", err)
	}
	h := sha256.New()
	h.Write(bundlePrefix)
	h.Write(data)
	state, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil, err
	}
	return &BundleHash{state: state}, nil
}

// InputDigest is InputDigest(in) with in.Bundle the bundle h began with
// (in.Bundle itself is not read).
func (h *BundleHash) InputDigest(in Input) (string, error) {
	in.Bundle = nil
	data, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("cannot digest the render's input: %w", err)
	}
	rest, ok := bytes.CutPrefix(data, append(bundlePrefix, "null"...))
	if !ok {
		return "", fmt.Errorf("cannot digest the render's input: its JSON does not begin with the bundle")
	}
	s := sha256.New()
	if err := s.(encoding.BinaryUnmarshaler).UnmarshalBinary(h.state); err != nil {
		return "", err
	}
	s.Write(rest)
	return "sha256:" + hex.EncodeToString(s.Sum(nil)), nil
}
