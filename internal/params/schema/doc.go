// Package schema owns kudo-render's JSON Schemas: the effective schema of a
// bundle's parameters (params.schema.json, combined with its bases', or
// derived from params.yaml), the validation of parameter values against it,
// extension resource definitions (definitions/*.yaml, after Governor's
// extension resource definitions) and the validation of their resources,
// and the canonical JSON and digests of schemas.
//
// Schemas are JSON Schema 2020-12 (other drafts are accepted when they say
// so with $schema), validated with github.com/santhosh-tekuri/jsonschema/v6
// with format and content assertions on.
//
// # Schemas come from other teams
//
// A schema is data from someone else, so compiling and using one never
// reaches anything outside the schema (compare Helm's CVE-2025-32387 and
// CVE-2025-55199):
//
//   - nothing is ever loaded: a $ref, $dynamicRef or $schema that names a
//     file, a path such as /dev/zero, an http(s) URL or any other document
//     is refused with an error that names it. Only references inside the
//     schema ("#/$defs/x", anchors, embedded $id resources) and the standard
//     JSON Schema meta-schemas, which the library embeds, resolve;
//   - a schema is at most [MaxSchemaBytes] long and nested at most
//     [MaxDepth] levels deep, checked while decoding, before anything
//     recursive runs (JSON is decoded token by token; YAML definitions are
//     converted with a depth check);
//   - a reference cycle that never descends into the value ("$ref": "#",
//     a -> b -> a) is refused when the schema is compiled, as is a schema
//     in which one value would be checked against more than
//     [MaxSubschemasPerValue] subschemas (nested allOf of $refs: the
//     "billion laughs" of JSON Schema);
//   - values (parameters, resources) are nested at most [MaxDepth] levels
//     deep, so validating one against a recursive schema terminates, and
//     every validation has a budget of subschema evaluations that grows
//     with the size of the value: a schema that would take exponential
//     time on some value stops with an error instead of hanging;
//   - regular expressions are Go's (RE2): linear time, no backtracking;
//   - a panic inside the schema library becomes an error.
//
// # Parameters
//
// [Params] returns the effective parameter schema and [ValidateParams]
// validates the values of a FunctionConfig against it, before defaults,
// reporting every violation with its JSON pointer. See [Params] for how an
// extension's schema combines with its bases'.
//
// # Extension resource definitions
//
// [LoadDefinitions] reads definitions/*.yaml; [Resources] validates the
// resources of those kinds (apiVersion <framework>.kudorender.dev/<version>)
// and groups them by slugPlural for templates (.Resources.<slugPlural>).
//
// # Digests
//
// [Canonical] and [Digest] give the canonical JSON of a schema (sorted keys,
// numbers as written, no insignificant whitespace, no HTML escaping) and its
// SHA-256, which the lock records so that a schema cannot change under a
// published version.
package schema
