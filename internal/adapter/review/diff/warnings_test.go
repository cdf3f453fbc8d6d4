package diff

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"

	"github.com/kudo-render/kudo-render/internal/engine"
)

// cmWarned is a ConfigMap carrying warnings (kudorender.dev/warnings).
func cmWarned(name, data string, warnings ...string) string {
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  namespace: ns\n"
	if len(warnings) > 0 {
		doc += "  annotations:\n    kudorender.dev/warnings: " + strconv.Quote(strings.Join(warnings, "\n")+"\n") + "\n"
	}
	return doc + "data: {a: " + data + "}\n"
}

// TestWarningsInDiff: the report says each warning once for all the
// objects that carry it, whether the change brings it, removes it or
// keeps it; the annotation itself is a change of the object (it is
// applied), in every format (issue 33.3).
func TestWarningsInDiff(t *testing.T) {
	const conv, typo, gone = "templates/pdb.yaml:1: converted policy/v1beta1 PodDisruptionBudget to policy/v1",
		"params.yaml:4: parameters[0].descripton: unknown field", "templates/cm.yaml:3: data.x: removed \x1b[31mred"
	from := []engine.Item{
		item(t, cmWarned("a", "1", typo, gone), 0, false),
		item(t, cmWarned("b", "1", typo), 0, false),
		item(t, cmWarned("old", "1", gone), 0, false),
	}
	to := []engine.Item{
		item(t, cmWarned("a", "1", typo, conv), 0, false),
		item(t, cmWarned("b", "1", typo), 0, false),
		item(t, cmWarned("c", "1", conv), 0, false),
		item(t, cmWarned("d", "1", conv), 0, false),
		item(t, cmWarned("e", "1", conv), 0, false),
	}
	r, err := Compare(from, to, Options{})
	assert.NilError(t, err)
	var got []string
	for _, w := range r.Warnings {
		var keys []string
		for _, k := range w.Objects {
			keys = append(keys, k.Name)
		}
		got = append(got, string(w.Status)+" "+w.Text+" on "+strings.Join(keys, ","))
	}
	assert.DeepEqual(t, []string{
		"unchanged " + typo + " on a,b",
		"added " + conv + " on a,c,d,e",
		"removed " + gone + " on a,old",
	}, got)
	assert.Check(t, is.Equal(r.Counts().Changed, 1), "a's warnings changed: a change of a")
	var text bytes.Buffer
	assert.NilError(t, r.Text(&text, false))
	js, err := r.JSON()
	assert.NilError(t, err)
	for name, out := range map[string]string{"text": text.String(), "markdown": r.Markdown("", 0), "json": string(js)} {
		assert.Check(t, !strings.Contains(out, "\x1b"), "%s: a control character reaches the report", name)
	}
	golden.Assert(t, text.String(), "warnings.txt")
	golden.Assert(t, r.Markdown("", 0), "warnings.md")
}

// TestNoWarningsNoSection: renders without warnings have no warnings
// section.
func TestNoWarningsNoSection(t *testing.T) {
	r, err := Compare([]engine.Item{item(t, cmWarned("a", "1"), 0, false)}, []engine.Item{item(t, cmWarned("a", "2"), 0, false)}, Options{})
	assert.NilError(t, err)
	var text bytes.Buffer
	assert.NilError(t, r.Text(&text, false))
	js, err := r.JSON()
	assert.NilError(t, err)
	for _, out := range []string{text.String(), r.Markdown("", 0), string(js)} {
		assert.Check(t, !strings.Contains(strings.ToLower(out), "warnings"), out)
	}
}
