package validate

import (
	"strings"
	"syscall"
	"testing"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// celShapes are expressions whose compilation grows differently with
// their length: a short rule, a chain of comparisons (the type checker's
// quadratic case), a long list literal, a long concatenation.
var celShapes = map[string]string{
	"short":       "self.a != 'x'",
	"or-1000":     "self.a == 'x'" + strings.Repeat(" || self.a == 'y'", 1000),
	"list-3000":   "self.a in [" + strings.Repeat("'y',", 3000) + "'x']",
	"concat-3000": "self.a != 'x'" + strings.Repeat(" + 'y'", 3000),
}

// BenchmarkCELCompile compiles each shape as a custom resource's
// validator does and reports the time per unit charged for it
// (celCompileCost), in CPU time (the machine may be shared): the charge
// holds when cpu-ns/unit stays under 100 (the API server's 10 million
// units a second) for every shape.
// cpuTime is the CPU time this process has used, in nanoseconds.
func cpuTime() int64 {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return r.Utime.Nano() + r.Stime.Nano()
}

func BenchmarkCELCompile(b *testing.B) {
	for name, rule := range celShapes {
		spec := apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{
			"a": {Type: "string", MaxLength: new(int64(64))},
		}, XValidations: apiextensions.ValidationRules{{Rule: rule}}}
		s, err := structuralschema.NewStructural(&apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"spec": spec}})
		if err != nil {
			b.Fatal(err)
		}
		units := celCompileCost(rule)
		b.Run(name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				cel.NewValidator(s, true, celconfig.PerCallLimit)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/float64(units), "cpu-ns/unit")
			b.ReportMetric(float64(units), "units")
		})
	}
}
