package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/engine"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/render"
)

// Info findings say what verify could not check.
const Info Severity = "info"

// Options of Package.
type Options struct {
	// Dependencies resolves the packages of KudoOperator tasks.
	Dependencies engine.DependencyResolver
	// Strict makes problems that KUDO tolerated (unknown fields of
	// operator.yaml and params.yaml) errors.
	Strict bool
	// KubeVersion is the Kubernetes version the plans are rendered for
	// (zero: the default), as render's --kube-version.
	KubeVersion kubeversion.Version
}

// Package runs every check of [Bundle], reports what KUDO tolerated
// (unknown fields, as warnings or, strict, errors), and renders every plan
// with the default parameters, exactly as `render` does: whatever makes a
// render with defaults fail is an error here too. When a parameter needs
// a value and has no default, plans cannot be rendered with defaults: an
// info finding says so.
func Package(b *bundle.Bundle, opts Options) []Finding {
	out := Bundle(b)
	sev, suffix := Warning, diag.Tolerated
	if opts.Strict {
		sev, suffix = Error, ""
	}
	for _, w := range b.Warnings {
		out = append(out, Finding{Severity: sev, File: w.File, Line: w.Line, Msg: fieldMsg(w) + suffix})
	}
	out = append(out, renderPlans(b, opts)...)
	return sortFindings(out)
}

func fieldMsg(d *diag.Diagnostic) string {
	if d.Field == "" {
		return d.Msg
	}
	return d.Field + ": " + d.Msg
}

// renderPlans renders each plan with the default parameters.
func renderPlans(b *bundle.Bundle, opts Options) []Finding {
	var needed []string
	for _, p := range b.Params {
		if p.NeedsValue() {
			needed = append(needed, p.Name)
		}
	}
	if len(needed) > 0 {
		return []Finding{{Severity: Info, File: paramsFile, Msg: fmt.Sprintf(
			"plans not rendered with default parameters: %s need a value (render them with -p)", strings.Join(needed, ", "))}}
	}
	tolerated := map[string]bool{}
	for _, w := range b.Warnings {
		tolerated[w.Error()+diag.Tolerated] = true
	}
	var out []Finding
	for _, pl := range b.Plans {
		warn := func(msg string) {
			if !tolerated[msg] { // fields the API type does not have
				out = append(out, Finding{Severity: Warning, File: b.File, Msg: fmt.Sprintf("plan %q: %s", pl.Name, msg)})
			}
		}
		_, err := engine.RenderWith(engine.Options{Warn: warn, Strict: opts.Strict, KubeVersion: opts.KubeVersion}, engine.Request{
			Bundle: b, Instance: render.Instance{Name: "verify", Namespace: "verify"},
			Plans: []string{pl.Name}, Dependencies: opts.Dependencies,
		})
		if err == nil {
			continue
		}
		for _, d := range diag.From(err) {
			file := d.File
			if file == "" {
				file = b.File
			}
			out = append(out, Finding{Severity: Error, File: file, Line: d.Line,
				Msg: fmt.Sprintf("plan %q does not render with the default parameters: %s", pl.Name, fieldMsg(d))})
		}
	}
	return out
}

func sortFindings(out []Finding) []Finding {
	slices.SortFunc(out, compareFindings)
	return slices.Compact(out)
}
