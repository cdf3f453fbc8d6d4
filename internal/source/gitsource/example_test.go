package gitsource_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/source/gitsource"
)

func ExampleScrub() {
	fmt.Println(gitsource.Scrub("https://bot:s3cret@git.example.com/platform/operators.git"))
	fmt.Println(gitsource.ValidateURL("http://git.example.com/x.git", gitsource.Options{}) != nil)
	fmt.Println(gitsource.ValidateURL("https://git.example.com/x.git", gitsource.Options{}))
	// Output:
	// https://git.example.com/platform/operators.git
	// true
	// <nil>
}
