package location_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kudo-render/kudo-render/internal/source/location"
)

func ExampleSources_Find() {
	dir, _ := os.MkdirTemp("", "location-example")
	defer os.RemoveAll(dir)
	for _, v := range []string{"0.3.3", "0.3.4"} {
		p := filepath.Join(dir, "repo", "zookeeper", v)
		os.MkdirAll(p, 0o755)
		os.WriteFile(filepath.Join(p, "operator.yaml"), []byte("name: zookeeper\noperatorVersion: "+v+"\n"), 0o644)
	}
	s := &location.Sources{
		Confine:      dir,
		Repositories: []location.Repository{{Name: "community", Location: location.Local{Dir: filepath.Join(dir, "repo"), Confine: dir}}},
	}
	loc, err := s.Find(context.Background(), "zookeeper", "0.3.4")
	if err != nil {
		fmt.Println(err)
		return
	}
	rel, _ := filepath.Rel(dir, loc.String())
	fmt.Println(rel, loc.Name())

	// Local paths never leave the confinement, links resolved.
	outside, _ := s.Local(dir).Join("../elsewhere")
	_, err = outside.Open(context.Background())
	fmt.Println(err != nil)
	// Output:
	// repo/zookeeper/0.3.4 0.3.4
	// true
}
