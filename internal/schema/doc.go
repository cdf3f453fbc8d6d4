// Package schema owns kudo-render's JSON Schemas: the effective schema of
// a bundle's parameters ([Params]: params.schema.json combined with its
// bases', or derived from params.yaml) and the validation of values
// against it ([ValidateParams]), extension resource definitions
// (definitions/*.yaml, after Governor's: [LoadDefinitions], [Resources])
// and the canonical JSON and digests that `kudo-render lock` records
// ([Canonical], [Digest]). In the pipeline it serves the params stage,
// before any template runs.
//
// The one thing to know: a schema is data from another team. Nothing it
// names is ever loaded (no file, URL or other document: only references
// inside it and the embedded meta-schemas), its size, depth and fan-out
// are bounded before anything recursive runs, and every validation
// charges the render's budget, so no schema can crash, hang or exhaust a
// render.
//
// docs/definitions.md is the reference: parameter schemas, resource
// definitions, immutable schemas and digests, hostile schemas.
package schema
