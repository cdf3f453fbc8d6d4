package source_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/source"
)

func ExampleScrub() {
	fmt.Println(source.Scrub("https://bot:s3cret@git.example.com/platform/operators.git"))
	fmt.Println(source.ValidateURL("http://git.example.com/x.git", source.Options{}) != nil)
	fmt.Println(source.ValidateURL("https://git.example.com/x.git", source.Options{}))
	// Output:
	// https://git.example.com/platform/operators.git
	// true
	// <nil>
}
