package runner

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
)

// TestApplyLockKeepsNulls: writing the lock back keeps a key without a
// value in flow style null (go-yaml alone would write it as ”, an empty
// string), and the commit lands after ref.
func TestApplyLockKeepsNulls(t *testing.T) {
	in := "apiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: app, labels: {team}}\nspec:\n  framework:\n    git: {url: https://git.example/a.git, ref: main, path: app}\n"
	out, err := ApplyLock([]byte(in), LockEdit{Pinned: map[string]bundle.Source{"spec.framework.git": bundle.GitSource{URL: "https://git.example/a.git", Ref: "main", Commit: strings.Repeat("1", 40)}}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metadata struct {
			Labels map[string]*string `yaml:"labels"`
		} `yaml:"metadata"`
		Spec struct {
			Framework struct {
				Git map[string]string `yaml:"git"`
			} `yaml:"framework"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if v, ok := doc.Metadata.Labels["team"]; !ok || v != nil {
		t.Errorf("labels.team is no longer null:\n%s", out)
	}
	if doc.Spec.Framework.Git["commit"] != strings.Repeat("1", 40) {
		t.Errorf("no commit written:\n%s", out)
	}
}
