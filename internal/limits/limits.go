package limits

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kudo-render/kudo-render/internal/diag"
)

// Limits bound what one run may spend. The zero value of a field means
// "the default"; use [Default] or [Limits.WithDefaults].
type Limits struct {
	// FileBytes bounds any one file read from a bundle or a config.
	FileBytes int64
	// TemplateBytes bounds the text one template execution renders, and
	// any one intermediate string a template function builds.
	TemplateBytes int64
	// ListItems bounds lists and dicts that template functions build
	// (until, untilStep, seq, list, dict, ...).
	ListItems int64
	// YAMLValues bounds the values (scalars, sequences, mappings, alias
	// expansions counted) of one decoded YAML stream.
	YAMLValues int64
	// YAMLDepth bounds the nesting depth of YAML and JSON values.
	YAMLDepth int64
	// KRMInputBytes bounds the ResourceList read on stdin.
	KRMInputBytes int64
	// KRMItems bounds the items of that ResourceList.
	KRMItems int64
	// GitPackBytes bounds the pack one git fetch may download.
	GitPackBytes int64
	// GitBlobBytes bounds any one git object: a file (blob) of a tree, a
	// folder listing, a commit, fetched or read from a local repository.
	GitBlobBytes int64
	// GitTreeBytes bounds the files of a checked-out git folder, summed.
	GitTreeBytes int64
	// GitTreeEntries bounds the entries (files, folders, links,
	// submodules) of a git tree written to disk.
	GitTreeEntries int64
	// GitPackObjects bounds the objects of one fetched pack.
	GitPackObjects int64
	// GitTimeout bounds one git operation (ls-remote, fetch) as a whole.
	GitTimeout time.Duration
	// GitConnectTimeout bounds connecting to a git server (TCP and TLS).
	GitConnectTimeout time.Duration
	// GitIdleTimeout bounds the time a git server may send nothing.
	GitIdleTimeout time.Duration
	// OCILayerBytes bounds the layer of an OCI artifact, as downloaded.
	OCILayerBytes int64
	// OCITreeBytes bounds the files of an extracted OCI artifact, summed.
	OCITreeBytes int64
	// OCIEntries bounds the files and folders of an OCI artifact's layer.
	OCIEntries int64
	// OCIRatio bounds how many bytes a layer may extract to per byte
	// downloaded.
	OCIRatio int64
	// OCITimeout bounds the OCI fetches of one run together (resolving,
	// verifying, pulling, pushing), from the first.
	OCITimeout time.Duration
	// Timeout ends the whole run (a template that loops).
	Timeout time.Duration
	// RenderBytes bounds the bytes one render produces, summed over its
	// templates, patches and the strings references copy.
	RenderBytes int64
	// RenderValues bounds the values one render decodes or copies, summed
	// (rendered YAML, patched objects, references, decoded input items).
	RenderValues int64
	// RenderObjects bounds the objects one render renders.
	RenderObjects int64
	// RenderInstances bounds the instances one render renders: requests
	// (KRM Instance items) and the KudoOperator dependencies they install.
	RenderInstances int64
	// SchemaSteps bounds the work of JSON Schema validation in one render.
	SchemaSteps int64
	// CRDSchemaNodes bounds the schema nodes of the
	// CustomResourceDefinitions one render types, summed over their
	// versions (a node of an apiextensions.k8s.io/v1beta1 definition
	// counts four times: its conversion types it again).
	CRDSchemaNodes int64
	// CELCost bounds the CEL work of one render, in the API server's cost
	// units: the rules of CustomResourceDefinitions compiled and evaluated.
	CELCost int64
	// PackageBytes bounds the bytes of the package files one render
	// loads, summed over every package of its KudoOperator graph and the
	// requests' own packages.
	PackageBytes int64
}

// Spec describes one limit.
type Spec struct {
	Name    string // "template-bytes": the flag is --max-<Name> (--<Name> for durations)
	Field   string // Go field name in Limits
	Unit    string // bytes, items, values, levels, duration
	Default int64  // for durations: nanoseconds
	What    string // what is bounded, for messages: "template output"
	Doc     string // one line for docs/limits.md and --help
}

// Flag is the command-line flag of a limit.
func (s Spec) Flag() string {
	if s.Unit == "duration" {
		return "--" + s.Name // --timeout, --git-timeout
	}
	return "--max-" + s.Name
}

// Name2Flag is the flag's name without dashes: "max-file-bytes".
func (s Spec) Name2Flag() string { return s.Flag()[2:] }

// Env is the environment variable of a limit.
func (s Spec) Env() string {
	return "KUDO_RENDER_" + strings.ToUpper(strings.ReplaceAll(strings.TrimPrefix(s.Flag(), "--"), "-", "_"))
}

// Raise says how to raise the limit, for messages.
func (s Spec) Raise() string { return s.Flag() + " or " + s.Env() }

const (
	kib = 1 << 10
	mib = 1 << 20
)

// Table lists every limit, in the order docs/limits.md shows them.
var Table = []Spec{
	{Name: "file-bytes", Field: "FileBytes", Unit: "bytes", Default: 8 * mib, What: "file size", Doc: "any one file read from a bundle, a FunctionConfig, a git tree or an OCI artifact"},
	{Name: "template-bytes", Field: "TemplateBytes", Unit: "bytes", Default: 16 * mib, What: "template output", Doc: "text rendered by one template, and any one string a template function builds"},
	{Name: "list-items", Field: "ListItems", Unit: "items", Default: 100_000, What: "list size", Doc: "items of a list or dict built by template functions (until, seq, list, dict, ...)"},
	{Name: "yaml-values", Field: "YAMLValues", Unit: "values", Default: 1_000_000, What: "YAML values", Doc: "values in one decoded YAML stream, alias expansions counted"},
	{Name: "yaml-depth", Field: "YAMLDepth", Unit: "levels", Default: 100, What: "YAML nesting depth", Doc: "nesting depth of YAML and JSON values"},
	{Name: "krm-input-bytes", Field: "KRMInputBytes", Unit: "bytes", Default: 256 * mib, What: "ResourceList size", Doc: "the KRM ResourceList read on stdin"},
	{Name: "krm-items", Field: "KRMItems", Unit: "items", Default: 200_000, What: "ResourceList items", Doc: "items of the KRM ResourceList"},
	{Name: "git-pack-bytes", Field: "GitPackBytes", Unit: "bytes", Default: 64 * mib, What: "git pack size", Doc: "pack data one git fetch may download"},
	{Name: "git-blob-bytes", Field: "GitBlobBytes", Unit: "bytes", Default: 8 * mib, What: "git blob size", Doc: "any one git object (a file, a folder listing, a commit), fetched or read from a local repository (--from-rev)"},
	{Name: "git-tree-bytes", Field: "GitTreeBytes", Unit: "bytes", Default: 64 * mib, What: "git tree size", Doc: "all files of one git commit written to the cache or a --from-rev checkout, summed"},
	{Name: "git-tree-entries", Field: "GitTreeEntries", Unit: "entries", Default: 100_000, What: "git tree entries", Doc: "files, folders, links and submodules of one git commit written to the cache or a --from-rev checkout"},
	{Name: "git-pack-objects", Field: "GitPackObjects", Unit: "objects", Default: 200_000, What: "git pack objects", Doc: "objects of the pack one git fetch downloads"},
	{Name: "git-timeout", Field: "GitTimeout", Unit: "duration", Default: int64(25 * time.Second), What: "git operation time", Doc: "every git operation of one run (ls-remote, fetch, waiting for another process's fetch of the same commit), shared, from the first; never past the run's `--timeout` less a margin"},
	{Name: "git-connect-timeout", Field: "GitConnectTimeout", Unit: "duration", Default: int64(10 * time.Second), What: "git connect time", Doc: "connecting to a git server (TCP and TLS handshake)"},
	{Name: "git-idle-timeout", Field: "GitIdleTimeout", Unit: "duration", Default: int64(10 * time.Second), What: "git idle time", Doc: "a git server sending nothing (a stalled transfer)"},
	{Name: "oci-layer-bytes", Field: "OCILayerBytes", Unit: "bytes", Default: 64 * mib, What: "OCI layer size", Doc: "the layer of an OCI artifact, as downloaded (compressed)"},
	{Name: "oci-tree-bytes", Field: "OCITreeBytes", Unit: "bytes", Default: 64 * mib, What: "OCI tree size", Doc: "all files of an extracted OCI artifact, summed"},
	{Name: "oci-entries", Field: "OCIEntries", Unit: "items", Default: 10_000, What: "OCI layer entries", Doc: "files and folders in the layer of an OCI artifact"},
	{Name: "oci-ratio", Field: "OCIRatio", Unit: "times", Default: 100, What: "OCI decompression ratio", Doc: "bytes a layer may extract to per byte downloaded (a decompression bomb)"},
	{Name: "oci-timeout", Field: "OCITimeout", Unit: "duration", Default: int64(25 * time.Second), What: "OCI fetch time", Doc: "every OCI fetch of one run (resolve, signature, manifest, layer, retries), shared, from the first; never past the run's `--timeout` less a margin"},
	{Name: "timeout", Field: "Timeout", Unit: "duration", Default: int64(30 * time.Second), What: "run time", Doc: "the whole run (a template that loops, a source that stalls); 0 means never"},
	{Name: "render-bytes", Field: "RenderBytes", Unit: "bytes", Default: 64 * mib, What: "total render output", Doc: "bytes one render produces, summed: the output of every template and patch, the strings references copy"},
	{Name: "render-values", Field: "RenderValues", Unit: "values", Default: 2_000_000, What: "total render values", Doc: "values one render decodes or copies, summed: rendered YAML, patched objects, references, decoded KRM input items"},
	{Name: "render-objects", Field: "RenderObjects", Unit: "objects", Default: 100_000, What: "render objects", Doc: "objects one render renders, over all its templates and instances"},
	{Name: "render-instances", Field: "RenderInstances", Unit: "instances", Default: 2_000, What: "render instances", Doc: "instances one render renders: requests (KRM Instance items) and the KudoOperator dependencies they install, at every level"},
	{Name: "schema-steps", Field: "SchemaSteps", Unit: "steps", Default: 100_000_000, What: "schema validation work", Doc: "steps of JSON Schema work (parameters, resources) in one render: compiling a schema of n subschemas n²/2 (once per package), validating one per subschema evaluated plus one per byte of the string it reads"},
	{Name: "crd-schema-nodes", Field: "CRDSchemaNodes", Unit: "nodes", Default: 50_000, What: "CRD schema nodes", Doc: "schema nodes of the CustomResourceDefinitions one render reads (its own and those spec.crds names), summed over their versions, each typed, converted and compiled; a node of an apiextensions.k8s.io/v1beta1 definition counts 4 times"},
	{Name: "cel-cost", Field: "CELCost", Unit: "units", Default: 50_000_000, What: "CEL work", Doc: "CEL work of one render in the API server's cost units (about 10 million a second): each x-kubernetes-validations expression compiled, each custom resource's rules evaluated"},
	{Name: "package-bytes", Field: "PackageBytes", Unit: "bytes", Default: 32 * mib, What: "total package size", Doc: "bytes of the package files one render loads, summed over every package of its KudoOperator graph and the requests' own packages (each package once); `diff`'s two sides share it, hence the room for two"},
}

// Lookup returns the spec of a limit by Name or Field.
func Lookup(name string) (Spec, bool) {
	for _, s := range Table {
		if s.Name == name || s.Field == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Default returns the default limits.
func Default() Limits {
	var l Limits
	return l.WithDefaults()
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	for _, s := range Table {
		p := l.field(s.Field)
		if *p == 0 {
			*p = s.Default
		}
	}
	return l
}

// field returns a pointer to the int64 (or duration) field named f.
func (l *Limits) field(f string) *int64 {
	switch f {
	case "FileBytes":
		return &l.FileBytes
	case "TemplateBytes":
		return &l.TemplateBytes
	case "ListItems":
		return &l.ListItems
	case "YAMLValues":
		return &l.YAMLValues
	case "YAMLDepth":
		return &l.YAMLDepth
	case "KRMInputBytes":
		return &l.KRMInputBytes
	case "KRMItems":
		return &l.KRMItems
	case "GitPackBytes":
		return &l.GitPackBytes
	case "GitBlobBytes":
		return &l.GitBlobBytes
	case "GitTreeBytes":
		return &l.GitTreeBytes
	case "GitTreeEntries":
		return &l.GitTreeEntries
	case "GitPackObjects":
		return &l.GitPackObjects
	case "GitTimeout":
		return (*int64)(&l.GitTimeout)
	case "GitConnectTimeout":
		return (*int64)(&l.GitConnectTimeout)
	case "GitIdleTimeout":
		return (*int64)(&l.GitIdleTimeout)
	case "OCILayerBytes":
		return &l.OCILayerBytes
	case "OCITreeBytes":
		return &l.OCITreeBytes
	case "OCIEntries":
		return &l.OCIEntries
	case "OCIRatio":
		return &l.OCIRatio
	case "OCITimeout":
		return (*int64)(&l.OCITimeout)
	case "Timeout":
		return (*int64)(&l.Timeout)
	case "RenderBytes":
		return &l.RenderBytes
	case "RenderValues":
		return &l.RenderValues
	case "RenderObjects":
		return &l.RenderObjects
	case "RenderInstances":
		return &l.RenderInstances
	case "SchemaSteps":
		return &l.SchemaSteps
	case "CRDSchemaNodes":
		return &l.CRDSchemaNodes
	case "CELCost":
		return &l.CELCost
	case "PackageBytes":
		return &l.PackageBytes
	}
	panic("limits: unknown field " + f)
}

// Set sets the limit named name (a Spec.Name) from text: a number with an
// optional Ki/Mi/Gi suffix for bytes, a Go duration for durations.
func (l *Limits) Set(name, text string) error {
	s, ok := Lookup(name)
	if !ok {
		return fmt.Errorf("unknown limit %q", name)
	}
	v, err := Parse(s, text)
	if err != nil {
		return err
	}
	*l.field(s.Field) = v
	return nil
}

// Parse parses the text of a limit's value.
func Parse(s Spec, text string) (int64, error) {
	text = strings.TrimSpace(text)
	if s.Unit == "duration" {
		d, err := time.ParseDuration(text)
		if err != nil {
			return 0, fmt.Errorf("%s %q: want a duration such as 30s or 5m", s.Flag(), text)
		}
		if d < 0 {
			return 0, fmt.Errorf("%s %q: must not be negative", s.Flag(), text)
		}
		return int64(d), nil
	}
	mult := int64(1)
	for suf, m := range map[string]int64{"Ki": kib, "Mi": mib, "Gi": 1 << 30} {
		if t, ok := strings.CutSuffix(text, suf); ok {
			text, mult = t, m
			break
		}
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%s %q: want a positive whole number (bytes may end in Ki, Mi or Gi)", s.Flag(), text)
	}
	return n * mult, nil
}

// FromEnv sets every limit whose environment variable is set in getenv
// (os.Getenv when nil).
func (l *Limits) FromEnv(getenv func(string) string) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	for _, s := range Table {
		if v := getenv(s.Env()); v != "" {
			p := l.field(s.Field)
			n, err := Parse(s, v)
			if err != nil {
				return fmt.Errorf("%s: %w", s.Env(), err)
			}
			*p = n
		}
	}
	return nil
}

// Get returns the value of the limit named name (a Spec.Name or Field).
func (l Limits) Get(name string) int64 {
	s, ok := Lookup(name)
	if !ok {
		panic("limits: unknown limit " + name)
	}
	return *l.field(s.Field)
}

// Err returns the error for hitting the limit named name (a Spec.Name or
// Field) whose value is max; where names the input.
func Err(name string, max int64, where string) *diag.LimitError {
	s, ok := Lookup(name)
	if !ok {
		panic("limits: unknown limit " + name)
	}
	return &diag.LimitError{Limit: s.What, Max: max, Unit: s.Unit, Raise: s.Raise(), Where: where}
}

// MarkdownTable is the table of docs/limits.md: one row per limit.
func MarkdownTable() string {
	var b strings.Builder
	b.WriteString("| limit | default | flag | environment variable | bounds |\n|---|---|---|---|---|\n")
	for _, s := range Table {
		fmt.Fprintf(&b, "| %s | %s | `%s` | `%s` | %s |\n", s.What, FormatValue(s, s.Default), s.Flag(), s.Env(), s.Doc)
	}
	return b.String()
}

// FormatValue writes a limit's value as its flag accepts it.
func FormatValue(s Spec, n int64) string {
	if s.Unit == "duration" {
		return time.Duration(n).String()
	}
	switch {
	case s.Unit == "bytes" && n%(1<<30) == 0:
		return strconv.FormatInt(n>>30, 10) + "Gi"
	case s.Unit == "bytes" && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + "Mi"
	case s.Unit == "bytes" && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + "Ki"
	}
	return strconv.FormatInt(n, 10) + " " + s.Unit
}

// current holds the limits of this process (flags and environment).
var current atomic.Pointer[Limits]

// Current returns the limits of this process: those given to SetCurrent,
// else the defaults. Stages read them when they need them, so a limit set
// on the command line reaches every stage without being passed along.
func Current() Limits {
	if l := current.Load(); l != nil {
		return *l
	}
	return Default()
}

// SetCurrent sets the limits of this process (zero fields: defaults).
func SetCurrent(l Limits) {
	l = l.WithDefaults()
	current.Store(&l)
}
