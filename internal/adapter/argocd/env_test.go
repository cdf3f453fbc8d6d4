package argocd

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

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

func cacheBundle() *bundle.Bundle {
	return &bundle.Bundle{Params: []*bundle.Param{
		{Name: "replicas", Type: bundle.TypeInteger, Default: "1", Description: "Number of pods."},
		{Name: "memory", Default: "256Mi"},
		{Name: "zones", Type: bundle.TypeArray, Default: []any{"a"}},
		{Name: "labels", Type: bundle.TypeMap, Default: map[string]any{"tier": "cache"}},
	}}
}

// TestEnvTypo: a mistyped name of the Application's plugin env is named as
// the user writes it in plugin.env, the suggestion too; everything else of
// the environment is still read.
func TestEnvTypo(t *testing.T) {
	s, err := FromEnv([]string{"ARGOCD_APP_NAME=sessions", "ARGOCD_ENV_REPLICA=5", "ARGOCD_ENV_memory=1Gi", "ARGOCD_ENV_PLAN=deploy"}, cacheBundle())
	want := "the Application's plugin env: REPLICA (ARGOCD_ENV_REPLICA) is neither a parameter of the package nor one of the plugin's variables (KUBE_VERSION, PLAN, PLANS, TARGET); did you mean replicas?"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
	if s == nil {
		t.Fatal("no settings with the error: the announcement could not list the parameters")
	}
	assert.Check(t, is.Equal(s.Name, "sessions"), "the rest of the environment was not read: %+v", s)
	assert.Check(t, is.Equal(s.Params["memory"], "1Gi"), "the rest of the environment was not read: %+v", s)
	assert.Check(t, is.DeepEqual([]string{"deploy"}, s.Plans), "the rest of the environment was not read: %+v", s)
}

// TestParamEnvTypo: PARAM_* names of unknown parameters get a suggestion,
// as the parameter name the user writes in plugin.parameters and as its
// variable.
func TestParamEnvTypo(t *testing.T) {
	s, err := FromEnv([]string{"PARAM_REPLICA=3", "PARAM_MEMORY=1Gi", "PARAM_ZONE_0=b", "PARAM_NOTHING_LIKE_IT=1"}, cacheBundle())
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{
		"PARAM_REPLICA: the package has no such parameter; did you mean replicas (PARAM_REPLICAS)?",
		"PARAM_ZONE_0: the package has no such parameter; did you mean zones (PARAM_ZONES_0)?",
		"PARAM_NOTHING_LIKE_IT: the package has no such parameter",
	} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %v\nlacks %s", err, w)
		}
	}
	if strings.Contains(err.Error(), "PARAM_NOTHING_LIKE_IT: the package has no such parameter; did you mean") {
		t.Errorf("a suggestion for a name like no other: %v", err)
	}
	if s == nil || s.Params["memory"] != "1Gi" {
		t.Errorf("the known PARAM_MEMORY was not read: %+v", s)
	}
}

// TestAnnounceValues: the announcement shows the values the render uses:
// the FunctionConfig's (with Argo CD's environment applied) over the
// package's defaults.
func TestAnnounceValues(t *testing.T) {
	got, err := AnnounceValues(cacheBundle(), map[string]any{"replicas": "2", "zones": "[b, c]", "labels": map[string]any{"tier": "db"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []Announcement{
		{Name: "replicas", Title: "replicas", Tooltip: "Number of pods.", ItemType: "number", String: "2"},
		{Name: "memory", Title: "memory", ItemType: "string", String: "256Mi"},
		{Name: "zones", Title: "zones", ItemType: "string", CollectionType: "array", Array: []string{"b", "c"}},
		{Name: "labels", Title: "labels", ItemType: "string", CollectionType: "map", Map: map[string]string{"tier": "db"}},
	}
	assert.Check(t, is.DeepEqual(want, got), "announcement")
	// A value the package refuses is shown as given, and the error says why.
	got, err = AnnounceValues(cacheBundle(), map[string]any{"replicas": "many", "replica": "3"})
	if got[0].String != "many" {
		t.Errorf("refused value shown as %q, want many", got[0].String)
	}
	if err == nil || !strings.Contains(err.Error(), `"many" is not an integer`) || !strings.Contains(err.Error(), "replica: is not defined by the package; did you mean replicas?") {
		t.Errorf("error = %v", err)
	}
}

// TestProblem: the problems of the Application's settings are an entry of
// the announcement, which Argo CD's UI shows with its title and value.
func TestProblem(t *testing.T) {
	a := Problem(errString("first\nsecond"))
	if a.Name != ProblemParameter || !strings.Contains(a.Title, "ERROR") || a.String != "first; second" || a.Tooltip != "first\nsecond" {
		t.Errorf("Problem = %+v", a)
	}
}

type errString string

func (e errString) Error() string { return string(e) }
