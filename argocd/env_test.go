package argocd

import (
	"testing"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestInstanceName: Argo CD gives an Application outside its own namespace
// ("apps in any namespace") as <namespace>_<name> to generate and as
// <namespace>/<name> where the UI or CLI qualify it; the instance is named
// after the Application's name part.
func TestInstanceName(t *testing.T) {
	cases := map[string]struct {
		reason, in, want string
	}{
		"Plain":          {reason: "an Application in Argo CD's own namespace is its name", in: "sessions", want: "sessions"},
		"Underscore":     {reason: "the controller's instance name of an app in any namespace", in: "team-a_sessions", want: "sessions"},
		"Slash":          {reason: "the qualified name the UI and CLI send for the parameters", in: "team-a/sessions", want: "sessions"},
		"DottedName":     {reason: "an Application name may hold dots", in: "team-a_sessions.v2", want: "sessions.v2"},
		"NotANamespace":  {reason: "a part before '_' that no namespace can be is left for the name check to refuse as given", in: "Bad_Name", want: "Bad_Name"},
		"EmptyName":      {reason: "nothing after the separator", in: "team-a_", want: "team-a_"},
		"LeadingUnderln": {reason: "nothing before the separator", in: "_sessions", want: "_sessions"},
		"Empty":          {reason: "no ARGOCD_APP_NAME", in: "", want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := InstanceName(tc.in); got != tc.want {
				t.Errorf("%s\nInstanceName(%q) = %q, want %q", tc.reason, tc.in, got, tc.want)
			}
		})
	}
	b := &bundle.Bundle{}
	for _, env := range []string{"ARGOCD_APP_NAME=team-a_sessions", "ARGOCD_APP_NAME=team-a/sessions"} {
		s, err := FromEnv([]string{env, "ARGOCD_APP_NAMESPACE=web"}, b)
		if err != nil || s.Name != "sessions" || s.Namespace != "web" {
			t.Errorf("FromEnv(%s): name %q, namespace %q, err %v; want sessions, web", env, s.Name, s.Namespace, err)
		}
	}
}
