package migrate_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/kudo-render/kudo-render/internal/adapter/migrate"
)

// shopParsed is shopExport read: the shop instance (web/shop) of the
// OperatorVersion web/shop-5.1.0-0.2.0, and its cache dependency.
func shopParsed(t *testing.T) *migrate.Export {
	t.Helper()
	var exp migrate.Export
	assert.NilError(t, migrate.Parse("export.yaml", shopExport(t), &exp))
	return &exp
}

const shopOV = "web/shop-5.1.0-0.2.0"

// renameOV gives the shop instance's OperatorVersion another name, in the
// instance and in the export, as an export that names it so would.
func renameOV(exp *migrate.Export, name string) {
	ov := exp.Versions[shopOV]
	delete(exp.Versions, shopOV)
	ov.Name = name
	exp.Versions["web/"+name] = ov
	exp.Instances["web/shop"].OperatorVersion = name
}

// TestImportNames: every name an export gives that Import would write into
// a path, a comment or a message is checked as Kubernetes checks it, and
// refused naming the object and the field; no file is returned. Names that
// hold a line break, an escape sequence or a bidirectional override are
// quoted escaped in the message.
func TestImportNames(t *testing.T) {
	cases := []struct {
		reason string
		change func(*migrate.Export)
		want   string
	}{
		{"line breaks in the OperatorVersion's name would end the header comment and write a FrameworkRender before the real one",
			func(e *migrate.Export) {
				renameOV(e, "x\napiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: shop}\nspec: {framework: {path: /etc}}\n---\n#")
			},
			`Instance web/shop: spec.operatorVersion.name: "x\napiVersion: kudorender.dev/v1alpha1\nkind: FrameworkRender\nmetadata: {name: sho"... is invalid: a lowercase RFC 1123 subdomain`},
		{"a carriage return in the OperatorVersion's name ends a comment line as well",
			func(e *migrate.Export) { renameOV(e, "shop\r- evil") },
			`Instance web/shop: spec.operatorVersion.name: "shop\r- evil" is invalid`},
		{"an operator named .git would be the rebuilt package's folder operators/.git",
			func(e *migrate.Export) { e.Versions[shopOV].Operator = ".git" },
			`OperatorVersion web/shop-5.1.0-0.2.0: spec.operator.name: ".git" is invalid: a lowercase RFC 1123 subdomain`},
		{"a version holding an escape sequence would be a folder name",
			func(e *migrate.Export) { e.Versions[shopOV].Version = "0.2.0\x1b]8;;http://evil\x07" },
			`OperatorVersion web/shop-5.1.0-0.2.0: spec.version: "0.2.0\x1b]8;;http://evil\a" is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'); it is part of the OperatorVersion's name`},
		{"a version with a newline",
			func(e *migrate.Export) { e.Versions[shopOV].Version = "0.2.0\nx" },
			`spec.version: "0.2.0\nx" is invalid`},
		{"a version that is ..",
			func(e *migrate.Export) { e.Versions[shopOV].Version = ".." },
			`spec.version: ".." is invalid`},
		{"a template below .git/ would write git's hooks",
			func(e *migrate.Export) { e.Versions[shopOV].Templates[".git/hooks/post-checkout"] = "#!/bin/sh\n" },
			`OperatorVersion web/shop-5.1.0-0.2.0: spec.templates[".git/hooks/post-checkout"]: ".git" is invalid: a folder or file named .git is git's own`},
		{".GIT is .git on a file system that ignores case",
			func(e *migrate.Export) { e.Versions[shopOV].Templates[".GIT/config"] = "x" },
			`spec.templates[".GIT/config"]: ".GIT" is invalid`},
		{"a template name with a line break",
			func(e *migrate.Export) { e.Versions[shopOV].Templates["a\nb.yaml"] = "x" },
			`spec.templates["a\nb.yaml"]: "a\nb.yaml" is invalid: a valid config key must consist of alphanumeric characters`},
		{"a template name with a right-to-left override",
			func(e *migrate.Export) { e.Versions[shopOV].Templates["\u202elmay.exe"] = "x" },
			`spec.templates["\u202elmay.exe"]`},
		{"an empty folder in a template's path",
			func(e *migrate.Export) { e.Versions[shopOV].Templates["a//b.yaml"] = "x" },
			`spec.templates["a//b.yaml"]: "" is invalid`},
		{"a parameter name that would be YAML of its own",
			func(e *migrate.Export) { e.Versions[shopOV].Params[0].Name = "X\n- name: Y" },
			`OperatorVersion web/shop-5.1.0-0.2.0: spec.parameters[0].name: "X\n- name: Y" is invalid`},
		{"an instance's parameter name with an escape sequence",
			func(e *migrate.Export) { e.Instances["web/shop"].Params["\x1b[2J"] = "1" },
			`Instance web/shop: spec.parameters: "\x1b[2J" is invalid`},
		{"the owner of a dependency with a line break in its name",
			func(e *migrate.Export) { e.Instances["web/shop-cache"].Parent = "shop\n# owner" },
			`Instance web/shop-cache: metadata.ownerReferences: the owning Instance's name: "shop\n# owner" is invalid`},
	}
	for _, c := range cases {
		exp := shopParsed(t)
		c.change(exp)
		res, err := migrate.Import(exp, migrate.Options{OutDir: "/gitops"})
		assert.ErrorContains(t, err, c.want, c.reason)
		assert.Check(t, res == nil, "%s: files returned with an error", c.reason)
		for _, raw := range []string{"\n#", "\r", "\x1b", "\u202e"} {
			assert.Check(t, !strings.Contains(err.Error(), raw), "%s: the message holds %q raw", c.reason, raw)
		}
	}
}

// TestImportValues: a parameter value of the wrong type for the package,
// or outside its enum, is refused as render refuses it (the same check and
// words), naming the instance and the parameter; so is a default of the
// package that a render of the instance would use and refuse.
func TestImportValues(t *testing.T) {
	cases := []struct {
		reason, param, value, want string
	}{
		{"an integer that is not one", "REPLICAS", "abc",
			`Instance web/shop: spec.parameters.REPLICAS: "abc" is not an integer (a render would refuse it)`},
		{"a boolean that is neither true nor false", "DEBUG", "maybe",
			`Instance web/shop: spec.parameters.DEBUG: "maybe" is not a boolean (want true or false) (a render would refuse it)`},
		{"a map given a list", "LABELS", "- a\n- b\n",
			`Instance web/shop: spec.parameters.LABELS: "- a\n- b\n" is not a map (want a YAML or JSON mapping such as {a: 1}) (a render would refuse it)`},
		{"an array given a map", "HOSTS", "a: b\n",
			`Instance web/shop: spec.parameters.HOSTS: "a: b\n" is not an array`},
		{"a number that is not one", "RATIO", "half",
			`Instance web/shop: spec.parameters.RATIO: "half" is not a number`},
		{"a value outside the enum", "TIER", "bronze",
			`Instance web/shop: spec.parameters.TIER: "bronze" is not one of the allowed values`},
		{"an integer out of range", "REPLICAS", "99999999999999999999",
			`spec.parameters.REPLICAS: "99999999999999999999" is out of range for a 64-bit integer`},
	}
	for _, c := range cases {
		exp := shopParsed(t)
		exp.Instances["web/shop"].Params[c.param] = c.value
		res, err := migrate.Import(exp, migrate.Options{OutDir: "/gitops"})
		assert.ErrorContains(t, err, c.want, c.reason)
		assert.Check(t, res == nil, "%s: files returned with an error", c.reason)
	}

	exp := shopParsed(t)
	ten := "ten"
	exp.Versions[shopOV].Params = append(exp.Versions[shopOV].Params, migrate.Param{Name: "WORKERS", Type: "integer", Default: &ten})
	res, err := migrate.Import(exp, migrate.Options{OutDir: "/gitops"})
	assert.ErrorContains(t, err, `Instance web/shop: the package shop 0.2.0: params.yaml:`, "a default the instance leaves in use")
	assert.ErrorContains(t, err, `parameters[8].default: WORKERS: default "ten" is not an integer (a render of this instance would refuse it)`)
	assert.Check(t, res == nil)
}
