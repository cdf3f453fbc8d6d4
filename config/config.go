package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/kudo-render/kudo-render/bundle"
	"github.com/kudo-render/kudo-render/internal/diag"
	"github.com/kudo-render/kudo-render/internal/kube/kubeversion"
	"github.com/kudo-render/kudo-render/internal/lazy"
	"github.com/kudo-render/kudo-render/internal/limits"
	"github.com/kudo-render/kudo-render/internal/source/location"
	"github.com/kudo-render/kudo-render/internal/yaml/object"
	"github.com/kudo-render/kudo-render/internal/yaml/strictyaml"
)

// API version and kind of the FunctionConfig.
const (
	APIVersion = "kudorender.dev/v1alpha1"
	Kind       = "FrameworkRender"
)

// FrameworkRender is the FunctionConfig.
type FrameworkRender struct {
	APIVersion string   `yaml:"apiVersion" json:"apiVersion"`
	Kind       string   `yaml:"kind" json:"kind"`
	Metadata   Metadata `yaml:"metadata" json:"metadata"`
	Spec       Spec     `yaml:"spec" json:"spec"`
}

// Metadata names the instance.
type Metadata struct {
	Name        string            `yaml:"name" json:"name"`
	Namespace   string            `yaml:"namespace,omitempty" json:"namespace,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty" json:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty" json:"annotations,omitempty"`
}

// Spec says what to render.
type Spec struct {
	Framework FrameworkRef `yaml:"framework" json:"framework"`
	// Plans to render, in order; default [deploy].
	Plans []string `yaml:"plans,omitempty" json:"plans,omitempty"`
	// Params are parameter values. Scalars keep the text they are written
	// with; lists and maps are passed as parsed YAML.
	Params Params `yaml:"params,omitempty" json:"params,omitempty"`
	// Target is argocd (default), plain or flux.
	Target string `yaml:"target,omitempty" json:"target,omitempty"`
	// Flux tunes the flux target's Kustomizations and namespace.
	Flux *FluxSpec `yaml:"flux,omitempty" json:"flux,omitempty"`
	// ServerSideApply overrides the default of the argocd target (on for
	// KEP-0009 framework bundles, off for KUDO packages).
	ServerSideApply *bool `yaml:"serverSideApply,omitempty" json:"serverSideApply,omitempty"`
	// Pipes maps pipe keys to existing Secrets or ConfigMaps; a Pipe task
	// whose keys are all mapped is not run.
	Pipes map[string]string `yaml:"pipes,omitempty" json:"pipes,omitempty"`
	// PublisherImage is the kubectl image of pipe Jobs.
	PublisherImage string `yaml:"publisherImage,omitempty" json:"publisherImage,omitempty"`
	// FailOnSecretCopy makes copying a value out of a Secret into another
	// kind of object (getValueFrom) an error instead of a warning: it
	// would land in git in clear text.
	FailOnSecretCopy bool `yaml:"failOnSecretCopy,omitempty" json:"failOnSecretCopy,omitempty"`
	// AllowEmpty lets the Argo CD plugin print a render without objects
	// (every Toggle off, an empty plan): otherwise refused, because Argo
	// CD would prune the whole application.
	AllowEmpty bool `yaml:"allowEmpty,omitempty" json:"allowEmpty,omitempty"`
	// Strict refuses what KUDO tolerated: unknown fields of a KUDO v1beta1
	// operator.yaml or params.yaml are errors instead of warnings.
	Strict bool `yaml:"strict,omitempty" json:"strict,omitempty"`
	// KubeVersion is the Kubernetes version the render targets ("1.34",
	// "v1.34.4"; default: the newest kudo-render supports). API versions
	// it no longer serves are converted to their successors, and every
	// object is validated against its API (docs/kubernetes-versions.md).
	KubeVersion string `yaml:"kubeVersion,omitempty" json:"kubeVersion,omitempty"`
	// CRDs are files or folders of CustomResourceDefinitions that the
	// render does not hold (installed by another application): custom
	// resources of their kinds are validated against their schemas.
	CRDs []string `yaml:"crds,omitempty" json:"crds,omitempty"`
	// ExpectedResourceVersions pins the output: Kind/namespace/name (or
	// Kind/name) -> sha256:... as kudorender.dev/resource-version shows.
	// A render whose output differs fails (kudo-render lock --pin-output
	// writes them).
	ExpectedResourceVersions map[string]string `yaml:"expectedResourceVersions,omitempty" json:"expectedResourceVersions,omitempty"`
	// Resources are objects of the framework's resource definitions
	// (apiVersion <framework>.kudorender.dev/<version>), validated against
	// their schemas and given to templates as .Resources.<slugPlural>.
	Resources []map[string]any `yaml:"resources,omitempty" json:"resources,omitempty"`
	// Lock is written by `kudo-render lock`: commits of nested git
	// sources and schema digests.
	Lock *Lock `yaml:"lock,omitempty" json:"lock,omitempty"`
	// Repositories resolve `extends: {kudo: ...}`.
	Repositories []Repository `yaml:"repositories,omitempty" json:"repositories,omitempty"`
	// Base replaces the framework's own `extends` (same shape), e.g. to
	// try a fork or a newer base without editing the extension.
	Base *bundle.Extends `yaml:"base,omitempty" json:"base,omitempty"`
	// Operators maps the operator versions that kudo.dev/v1beta1
	// Instance objects name (spec.operatorVersion.name, e.g.
	// "zookeeper-0.3.3") to packages; Instance objects in the KRM input
	// are rendered in place. Versions not listed here are looked up in
	// Repositories as <operator>/<version>/.
	Operators map[string]FrameworkRef `yaml:"operators,omitempty" json:"operators,omitempty"`
}

// FluxSpec tunes the Flux Kustomizations of the flux target (see
// docs/flux.md): durations as Flux writes them ("30s", "1m30s", "2h").
type FluxSpec struct {
	// Interval is how often a step reconciles; default 10m.
	Interval string `yaml:"interval,omitempty" json:"interval,omitempty"`
	// RetryInterval is how soon a failed step is tried again; default 1m.
	RetryInterval string `yaml:"retryInterval,omitempty" json:"retryInterval,omitempty"`
	// Timeout bounds a step's apply and health checks; default 5m.
	Timeout string `yaml:"timeout,omitempty" json:"timeout,omitempty"`
	// CreateNamespace: the output creates the instance's namespace if it
	// is missing (default true); false leaves it to someone else.
	CreateNamespace *bool `yaml:"createNamespace,omitempty" json:"createNamespace,omitempty"`
}

// fluxDuration is a duration as Flux's API accepts it.
var fluxDuration = lazy.Regexp(`^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$`)

// instancesOnly reports whether the config names no framework of its own
// but tells how to render Instance objects.
func (c *Config) instancesOnly() bool {
	return c.KRM && c.Spec.Framework.Path == "" && len(c.Spec.Framework.Sources()) == 0 &&
		(len(c.Spec.Operators) > 0 || len(c.Spec.Repositories) > 0)
}

// FrameworkRef says where the framework is: exactly one of path or a
// remote source (git: a folder of a git repository at a branch, tag or
// commit).
type FrameworkRef struct {
	// Path is a folder relative to the FunctionConfig's folder.
	Path          string `yaml:"path,omitempty" json:"path,omitempty"`
	bundle.Remote `yaml:",inline"`
}

// Repository is where `extends: {kudo: {framework, version}}` looks
// frameworks up: <framework>/<version>/ or <framework>/ with that version.
type Repository struct {
	Name string `yaml:"name" json:"name"`
	// Remote is a remote source (git: ...), its fields inline.
	bundle.Remote `yaml:",inline"`
	// Path is a local folder instead, relative to the config.
	Path string `yaml:"path,omitempty" json:"path,omitempty"`
}

// Config is a loaded FunctionConfig and the folder paths are relative to.
type Config struct {
	FrameworkRender
	// Dir is the folder the framework path is relative to.
	Dir string
	// File names the config in messages.
	File string
	root *yaml.Node
	// KRM is set for a KRM functionConfig: paths must stay inside Dir,
	// and a config may only map Instance objects to packages.
	KRM bool
	// deferName defers the name check to Check: Argo CD, or --name, gives
	// the name.
	deferName bool
	// decodeProblems are the problems of decoding the file, which Check
	// reports again with its own.
	decodeProblems []*diag.Diagnostic
	// Confine, when set, is a folder that local framework, base and
	// repository paths may not leave (the repository of an Argo CD
	// application).
	Confine string
}

// ConfigError lists every problem of a FunctionConfig.
type ConfigError struct {
	File     string
	Problems []*Problem
}

// Problem is one problem of a FunctionConfig: where it is (the file, a
// 1-based line and column, 0 when unknown, and the field's path) and
// what is wrong.
type Problem struct {
	File         string
	Line, Column int
	Field        string
	Msg          string
}

// Error formats the problem as file:line: field: message.
func (p *Problem) Error() string { return p.diagnostic().Error() }

// Place returns where the problem is and what is wrong: kudo-render's
// diagnostics read a problem of the API through it (file, line and field
// of a KRM result).
func (p *Problem) Place() (file string, line, column int, field, msg string) {
	return p.File, p.Line, p.Column, p.Field, p.Msg
}

func (p *Problem) diagnostic() *diag.Diagnostic {
	return &diag.Diagnostic{File: p.File, Line: p.Line, Column: p.Column, Field: p.Field, Msg: p.Msg}
}

// problems makes the problems of a config of diagnostics.
func problems(ds []*diag.Diagnostic) []*Problem {
	out := make([]*Problem, len(ds))
	for i, d := range ds {
		out[i] = &Problem{File: d.File, Line: d.Line, Column: d.Column, Field: d.Field, Msg: d.Msg}
	}
	return out
}

func (e *ConfigError) Error() string {
	if len(e.Problems) == 1 {
		return fmt.Sprintf("invalid FunctionConfig %s: %v", e.File, e.Problems[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "invalid FunctionConfig %s: %d problems:", e.File, len(e.Problems))
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// LoadFile reads a FunctionConfig file (at most limits.FileBytes). The
// instance name is checked by Check, once flags had their say.
func LoadFile(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read FunctionConfig: %w", err)
	}
	defer f.Close()
	data, err := readBounded(f, path)
	if err != nil {
		return nil, err
	}
	// The instance name may come from --name (an Argo CD application's
	// config leaves it to Argo CD): Check tells when it is missing. On
	// problems the config is returned too, for Check to report them all.
	c := &Config{deferName: true}
	if err := c.parse(filepath.Base(path), filepath.Dir(path), data); err != nil {
		if c.root == nil {
			return nil, err
		}
		return c, err
	}
	return c, nil
}

// LoadPluginFile reads the FunctionConfig of an Argo CD application: file
// in the working directory, read through the application's repository
// root, so a symbolic link that leaves the repository is an error and no
// byte outside it is read. The instance name may come from
// ARGOCD_APP_NAME, so it is checked later by Check; local paths are
// confined to the repository.
func LoadPluginFile(repoRoot, file string) (*Config, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(repoRoot, filepath.Join(wd, file))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("cannot read FunctionConfig %s: it is outside the application's repository", file)
	}
	root, err := os.OpenRoot(repoRoot)
	if err != nil {
		return nil, fmt.Errorf("cannot read FunctionConfig: %w", err)
	}
	defer root.Close()
	// Nothing that is not a regular file is opened: a named pipe would
	// block the plugin.
	data, err := location.ReadRegular(root, rel, limits.Default().FileBytes)
	if err != nil {
		return nil, fmt.Errorf("cannot read FunctionConfig %s: %w", file, err)
	}
	c := &Config{deferName: true, Confine: repoRoot}
	return c, c.parse(filepath.Base(file), filepath.Dir(filepath.Join(wd, file)), data)
}

// readBounded reads a config file of at most limits.FileBytes.
func readBounded(r io.Reader, name string) ([]byte, error) {
	max := limits.Default().FileBytes
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read FunctionConfig %s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, limits.Err("file-bytes", max, name)
	}
	return data, nil
}

// Parse decodes a FunctionConfig; name is used in messages, dir is the
// folder that framework paths are relative to.
func Parse(name, dir string, data []byte) (*Config, error) {
	return parse(name, dir, data, false)
}

// ParseKRM decodes the FunctionConfig of a KRM function running in dir.
func ParseKRM(name, dir string, data []byte) (*Config, error) {
	return parse(name, dir, data, true)
}

func parse(name, dir string, data []byte, krm bool) (*Config, error) {
	c := &Config{KRM: krm}
	if err := c.parse(name, dir, data); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Config) parse(name, dir string, data []byte) error {
	var p strictyaml.Problems
	c.Dir, c.File = dir, name
	n := strictyaml.Parse(name, data, &p)
	c.root = n
	if n != nil {
		strictyaml.Decode(name, n, &c.FrameworkRender, &p)
		c.decodeProblems = append([]*diag.Diagnostic(nil), p.List...)
		c.validate(&p)
	}
	if len(p.List) > 0 {
		return &ConfigError{File: name, Problems: problems(p.List)}
	}
	return nil
}

func (c *Config) validate(p *strictyaml.Problems) {
	if c.APIVersion != APIVersion {
		p.Add(c.File, strictyaml.LineOf(c.root, "apiVersion"), "apiVersion", "must be %s, got %q", APIVersion, c.APIVersion)
	}
	if c.Kind != Kind {
		p.Add(c.File, strictyaml.LineOf(c.root, "kind"), "kind", "must be %s, got %q", Kind, c.Kind)
	}
	if c.instancesOnly() || c.deferName {
		// a KRM functionConfig that only maps Instance objects to
		// packages, or a config whose name comes from Argo CD or --name
	} else if c.Metadata.Name == "" {
		p.Add(c.File, strictyaml.LineOf(c.root, "metadata", "name"), "metadata.name", "is required: it is the instance name (an application folder's config leaves it to Argo CD: give --name)")
	} else if err := object.CheckInstanceName(c.Metadata.Name); err != nil {
		p.Add(c.File, strictyaml.LineOf(c.root, "metadata", "name"), "metadata.name", "%v", err)
	}
	if ns := c.Metadata.Namespace; ns != "" {
		if err := object.CheckLabel(ns); err != nil {
			p.Add(c.File, strictyaml.LineOf(c.root, "metadata", "namespace"), "metadata.namespace", "%v", err)
		}
	}
	if c.instancesOnly() {
	} else if n := len(c.Spec.Framework.Sources()); (c.Spec.Framework.Path == "") == (n == 0) || n > 1 {
		p.Add(c.File, strictyaml.LineOf(c.root, "spec", "framework"), "spec.framework", "needs exactly one of %s", bundle.OneOf("path"))
	}
	if fp := c.Spec.Framework.Path; c.KRM && fp != "" && fp != "." {
		if err := bundle.CheckRef(path.Clean(fp)); err != nil {
			p.Add(c.File, strictyaml.LineOf(c.root, "spec", "framework", "path"), "spec.framework.path", "%q: %v", fp, err)
		}
	}
	for _, s := range c.Spec.Framework.Sources() {
		var e *bundle.SourceError
		if errors.As(s.Check(), &e) {
			p.Add(c.File, strictyaml.LineOf(c.root, "spec", "framework", s.SourceKind()), "spec.framework."+s.SourceKind()+"."+e.Field, "%s", e.Msg)
		}
	}
	for i, r := range c.Spec.Repositories {
		if n := len(r.Sources()); (r.Path == "") == (n == 0) || n > 1 {
			p.Add(c.File, strictyaml.LineOf(c.root, "spec", "repositories"), fmt.Sprintf("spec.repositories[%d]", i), "needs exactly one of %s", bundle.OneOf("path"))
		}
	}
	if _, err := ParseTarget(c.Spec.Target); err != nil {
		p.Add(c.File, strictyaml.LineOf(c.root, "spec", "target"), "spec.target", "%v", err)
	}
	if kv := c.Spec.KubeVersion; kv != "" {
		if _, err := kubeversion.Parse(kv); err != nil {
			p.Add(c.File, strictyaml.LineOf(c.root, "spec", "kubeVersion"), "spec.kubeVersion", "%v", err)
		}
	}
	if f := c.Spec.Flux; f != nil {
		for _, d := range []struct{ name, v string }{{"interval", f.Interval}, {"retryInterval", f.RetryInterval}, {"timeout", f.Timeout}} {
			if d.v != "" && !fluxDuration().MatchString(d.v) {
				p.Add(c.File, strictyaml.LineOf(c.root, "spec", "flux", d.name), "spec.flux."+d.name, "%q is not a duration as Flux writes them (30s, 1m30s, 2h)", d.v)
			}
		}
	}
}

// Values returns the parameter values of the config.
func (c *Config) Values() (map[string]any, error) {
	out := make(map[string]any, len(c.Spec.Params))
	var errs []error
	for k, n := range c.Spec.Params {
		v, err := strictyaml.Value(&n)
		if err != nil {
			errs = append(errs, fmt.Errorf("spec.params.%s: %w", k, err))
			continue
		}
		out[k] = v
	}
	return out, errors.Join(errs...)
}

// LocalPath is where a local path of the config points: relative paths
// are relative to the config's folder.
func (c *Config) LocalPath(p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.Dir, p)
}

// ConfineDir is the folder local paths of the config may not leave: the
// application's repository for the Argo CD plugin (Confine), the config's
// folder for a KRM function, "" for the CLI.
func (c *Config) ConfineDir() string {
	if c.Confine == "" && c.KRM {
		return c.Dir
	}
	return c.Confine
}

// Node is a YAML node: how parameter values are kept until rendering.
type Node = yaml.Node

// Params are parameter values by name. They decode in time linear in
// their number (go-yaml's own decoding of a map is quadratic).
type Params map[string]Node

// UnmarshalYAML implements yaml.Unmarshaler.
func (p *Params) UnmarshalYAML(n *yaml.Node) error {
	return strictyaml.DecodeMap(n, (*map[string]Node)(p))
}

// StringNode is a parameter value given as text (for example on the
// command line).
func StringNode(s string) Node {
	return yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// Check validates the config again, after flags or the environment
// changed it.
func (c *Config) Check() error {
	c.deferName = false
	p := strictyaml.Problems{List: append([]*diag.Diagnostic(nil), c.decodeProblems...)}
	c.validate(&p)
	if len(p.List) > 0 {
		return &ConfigError{File: c.File, Problems: problems(p.List)}
	}
	return nil
}

// SetParam sets a parameter value: text stays text, lists and maps are
// kept as YAML.
func (c *Config) SetParam(name string, v any) {
	if c.Spec.Params == nil {
		c.Spec.Params = map[string]Node{}
	}
	if s, ok := v.(string); ok {
		c.Spec.Params[name] = StringNode(s)
		return
	}
	var n yaml.Node
	_ = n.Encode(v)
	c.Spec.Params[name] = n
}

// Unwrap returns the problems, each an error.
func (e *ConfigError) Unwrap() []error {
	out := make([]error, len(e.Problems))
	for i, p := range e.Problems {
		out[i] = p
	}
	return out
}
