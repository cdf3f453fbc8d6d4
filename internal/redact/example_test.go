package redact_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/kudo-render/kudo-render/internal/redact"
)

func Example() {
	s := redact.New()
	// A Secret as a template wrote it, and a value a reference copied out
	// of it into a ConfigMap.
	s.AddSecret(map[string]any{"stringData": map[string]any{"username": "orders", "password": "hunter2hunter2"}}, false)
	s.AddCopied("hunter2hunter2")

	fmt.Println(s.Hides("hunter2hunter2"))                      // copied: the value itself
	fmt.Println(s.Hides("postgres://orders:hunter2hunter2@db")) // inside another value
	fmt.Println(s.Hides("aHVudGVyMmh1bnRlcjI="))                // its base64
	fmt.Println(s.Hides(sha256hex("hunter2hunter2")))           // its unsalted digest
	fmt.Println(s.Hides("orders-config"))                       // a Secret's own short value is not searched for
	fmt.Println(s.Error(errors.New(`label "hunter2hunter2" is invalid`)))
	// Output:
	// true
	// true
	// true
	// true
	// false
	// label "(secret value hidden)" is invalid
}

func sha256hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
