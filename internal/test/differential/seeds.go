package differential

import (
	"os"
	"testing"
)

// KindSeeds reads testdata/kinds.yaml, one valid object of every kind
// Kubernetes serves, as seeds.
func KindSeeds(t testing.TB, file, namespace string) []Seed {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := ParseSeeds("kinds.yaml", data, namespace)
	if err != nil {
		t.Fatal(err)
	}
	return seeds
}
