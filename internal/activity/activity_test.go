package activity_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kudo-render/kudo-render/internal/activity"
)

func TestActivities(t *testing.T) {
	outer := activity.Doing("rendering instance a")
	inner := activity.DoingFunc(func() string { return "executing templates/cm.yaml" })
	got := strings.Join(activity.Running(), "; ")
	if !strings.HasPrefix(got, "executing templates/cm.yaml; rendering instance a") {
		t.Errorf("latest first: %q", got)
	}
	inner()
	outer()
	for _, a := range activity.Running() {
		if strings.Contains(a, "instance a") || strings.Contains(a, "cm.yaml") {
			t.Errorf("a finished activity is still listed: %q", a)
		}
	}
}

func ExampleDoing() {
	done := activity.Doing("fetching https://example.com/repo.git")
	fmt.Println(activity.Running()[0])
	done()
	// Output: fetching https://example.com/repo.git
}
