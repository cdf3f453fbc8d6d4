package suggest_test

import (
	"fmt"

	"github.com/kudo-render/kudo-render/internal/suggest"
)

func ExampleClosest() {
	fmt.Println(suggest.Closest("desription", []string{"name", "description", "default"}))
	fmt.Println(suggest.Closest("zzz", []string{"name"}))
	// Output:
	// description true
	//  false
}
