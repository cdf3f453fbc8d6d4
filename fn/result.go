package fn

import (
	"errors"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/params"
)

// toResults turns an error into KRM results, one per diagnostic, with
// the file, field and resource where they are known.
func toResults(err error) framework.Results {
	var ie *itemError
	item := errors.As(err, &ie)
	var pe *params.Error
	paramErr := errors.As(err, &pe)
	var out framework.Results
	for _, d := range diag.From(err) {
		if paramErr && d.Field != "" && d.File == "" {
			c := *d // a parameter of the functionConfig
			c.Field = "spec.params." + d.Field
			d = &c
		}
		r := Result(d)
		if item && r.ResourceRef == nil {
			h := ie.item.header
			r.ResourceRef = &yaml.ResourceIdentifier{
				TypeMeta: yaml.TypeMeta{APIVersion: h.APIVersion, Kind: h.Kind},
				NameMeta: yaml.NameMeta{Name: h.Name, Namespace: h.Namespace},
			}
			if p := h.Annotations[string(kioutil.PathAnnotation)]; p != "" && r.File == nil {
				r.File = &framework.File{Path: p}
			}
		}
		out = append(out, r)
	}
	return out
}

// Result maps a diagnostic onto kyaml's framework.Result: message,
// severity, resourceRef, field.path and file.path (the line and column,
// which Result has no field for, go into the message and the "line" and
// "column" tags).
func Result(d *diag.Diagnostic) *framework.Result {
	r := &framework.Result{Message: d.Msg, Severity: framework.Error}
	switch d.Severity {
	case diag.SeverityWarning:
		r.Severity = framework.Warning
	case diag.SeverityInfo:
		r.Severity = framework.Info
	}
	if d.File == "" && d.Field == "" && d.Resource == nil {
		r.Message = d.Error()
	}
	if d.File != "" {
		r.File = &framework.File{Path: d.File}
	}
	if d.Line > 0 && (d.File != "" || d.Field != "" || d.Resource != nil) {
		r.Message = fmt.Sprintf("line %d: %s", d.Line, d.Msg)
		r.Tags = map[string]string{"line": fmt.Sprint(d.Line)}
		if d.Column > 0 {
			r.Message = fmt.Sprintf("line %d, column %d: %s", d.Line, d.Column, d.Msg)
			r.Tags["column"] = fmt.Sprint(d.Column)
		}
	}
	if d.Field != "" {
		r.Field = &framework.Field{Path: d.Field}
	}
	if res := d.Resource; res != nil {
		r.ResourceRef = &yaml.ResourceIdentifier{
			TypeMeta: yaml.TypeMeta{APIVersion: res.APIVersion, Kind: res.Kind},
			NameMeta: yaml.NameMeta{Name: res.Name, Namespace: res.Namespace},
		}
	}
	return r
}
