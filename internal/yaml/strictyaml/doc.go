// Package strictyaml decodes YAML files strictly: every mapping key that
// the target Go type does not declare is reported with its line and field
// path, as are type and syntax errors, so a typo in a hand-written file is
// an error instead of a silently dropped field.
package strictyaml
