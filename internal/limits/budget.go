package limits

import (
	"math"
	"sync/atomic"

	"github.com/kudo-render/kudo-render/internal/diag"
)

// Meter is one total of a render that a [Budget] bounds.
type Meter int

// The meters of a render's budget. Each is bounded by the limit of the
// same name in [Table] (render-bytes, render-values, ...).
const (
	// RenderBytes: bytes produced (template output, patched objects,
	// strings that references copy).
	RenderBytes Meter = iota
	// RenderValues: values decoded or copied (rendered YAML, patched
	// objects, references, decoded input items).
	RenderValues
	// RenderObjects: objects rendered.
	RenderObjects
	// RenderInstances: instances rendered (requests and the KudoOperator
	// dependencies they install).
	RenderInstances
	// SchemaSteps: steps of JSON Schema work (compiling a schema, n²/2
	// for n subschemas; subschema evaluations, and the bytes of the
	// strings they read).
	SchemaSteps
	// CRDSchemaNodes: schema nodes of CustomResourceDefinitions typed.
	CRDSchemaNodes
	// CELCost: CEL work (compiling and evaluating the rules of
	// CustomResourceDefinitions), in the API server's cost units.
	CELCost
	// PackageBytes: bytes of the package files loaded (every package of
	// the KudoOperator graph, once, and the requests' own), charged
	// before they are read.
	PackageBytes
	numMeters
)

// meterLimits names the limit of each meter (a Spec.Name).
var meterLimits = [numMeters]string{"render-bytes", "render-values", "render-objects", "render-instances", "schema-steps", "crd-schema-nodes", "cel-cost", "package-bytes"}

// Limit is the name of the meter's limit in [Table].
func (m Meter) Limit() string { return meterLimits[m] }

// Budget is what one render may spend in total, whatever its parts: the
// per-item limits (template-bytes, yaml-values, ...) bound one template or
// one stream, and a render of many items each just under them is bounded
// by its budget. The engine makes one per render ([NewBudget]) and every
// stage that produces data charges it before it allocates.
//
// A Budget is safe for concurrent use. A nil *Budget bounds nothing: its
// Charge always succeeds, for callers of a stage outside a render.
type Budget struct {
	max   [numMeters]int64
	spent [numMeters]atomic.Int64
}

// NewBudget returns an empty budget with the totals of l (zero fields:
// the defaults).
func NewBudget(l Limits) *Budget {
	l = l.WithDefaults()
	b := &Budget{}
	for m := range numMeters {
		b.max[m] = l.Get(m.Limit())
	}
	return b
}

// Charge spends n of meter m, or, when that would pass the limit, spends
// nothing and returns the limit's error, naming where (the template, the
// reference, the input) that asked for it.
func (b *Budget) Charge(m Meter, n int64, where string) error {
	if b == nil || n <= 0 {
		return nil
	}
	if b.spent[m].Add(n) > b.max[m] {
		b.spent[m].Add(-n)
		return b.Err(m, where)
	}
	return nil
}

// Refund gives back n of meter m that a charge took beyond what was
// spent (a stage that charges ahead, in steps).
func (b *Budget) Refund(m Meter, n int64) {
	if b != nil && n > 0 {
		b.spent[m].Add(-n)
	}
}

// Left is what meter m has left (math.MaxInt64 for a nil budget).
func (b *Budget) Left(m Meter) int64 {
	if b == nil {
		return math.MaxInt64
	}
	return max(0, b.max[m]-b.spent[m].Load())
}

// Spent is what meter m has spent so far.
func (b *Budget) Spent(m Meter) int64 {
	if b == nil {
		return 0
	}
	return b.spent[m].Load()
}

// Err is the error of meter m's limit, naming where.
func (b *Budget) Err(m Meter, where string) *diag.LimitError {
	return Err(m.Limit(), b.max[m], where)
}

// Measure counts the values of v, a value of the JSON model (maps, lists,
// scalars), and the bytes of its strings and keys, the way the render's
// budget counts them: a map or a list is one value, and so is each
// scalar. It stops counting once values passes maxValues, so measuring a
// value too large for a budget costs no more than the budget.
func Measure(v any, maxValues int64) (values, bytes int64) {
	stack := []any{v}
	for len(stack) > 0 && values <= maxValues {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		values++
		switch t := v.(type) {
		case map[string]any:
			for k, c := range t {
				bytes += int64(len(k))
				stack = append(stack, c)
			}
		case []any:
			if values+int64(len(stack)+len(t)) > maxValues {
				return maxValues + 1, bytes
			}
			stack = append(stack, t...)
		case string:
			bytes += int64(len(t))
		}
	}
	return values, bytes
}

// ChargeValue charges the values and bytes of v (see [Measure]) before it
// is copied; where names the copy.
func (b *Budget) ChargeValue(v any, where string) error {
	if b == nil {
		return nil
	}
	values, bytes := Measure(v, b.Left(RenderValues))
	if err := b.Charge(RenderValues, values, where); err != nil {
		return err
	}
	if err := b.Charge(RenderBytes, bytes, where); err != nil {
		b.Refund(RenderValues, values)
		return err
	}
	return nil
}
