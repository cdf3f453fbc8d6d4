package bundle

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Source is a folder of a remote source that a FunctionConfig or a bundle
// names (a base, a framework, a repository). Each kind of source is one
// type implementing Source and one field of [Remote]; the stages after
// loading reach it through package location's Kind, which the source's
// own package implements.
type Source interface {
	// SourceKind is the YAML field that names the source: "git".
	SourceKind() string
	// SourceURL is the repository's URL as written (it may carry
	// credentials: describe it through the kind).
	SourceURL() string
	// SourceRef is what moves (a branch, a tag), "" for the default.
	SourceRef() string
	// SourcePin is the immutable version pinned in the source (a commit),
	// "" when it is not pinned.
	SourcePin() string
	// SourcePath is the folder inside the source, "" for its root.
	SourcePath() string
	// WithPin returns a copy pinned to pin.
	WithPin(pin string) Source
	// WithPath returns a copy naming the folder p.
	WithPath(p string) Source
	// LockFields are the YAML fields of the ref and of the pin
	// (`kudo-render lock` writes the pin right after the ref).
	LockFields() (ref, pin string)
	// Check reports what makes the source unusable (a missing URL) as a
	// *SourceError naming the field below the source.
	Check() error
}

// Remote holds the remote sources a place may name, each kind in its own
// field; a valid place sets at most one. Adding a kind of source is adding
// its field here.
type Remote struct {
	Git *GitSource `yaml:"git,omitempty" json:"git,omitempty"`
	OCI *OCISource `yaml:"oci,omitempty" json:"oci,omitempty"`
}

// remoteFields are Remote's fields that hold a Source, with their YAML keys.
var remoteFields = func() (out []struct {
	index int
	key   string
}) {
	t := reflect.TypeFor[Remote]()
	src := reflect.TypeFor[Source]()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Pointer && f.Type.Implements(src) {
			key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			out = append(out, struct {
				index int
				key   string
			}{i, key})
		}
	}
	return out
}()

// SourceKinds are the YAML keys of the kinds of remote source: "git".
func SourceKinds() []string {
	out := make([]string, len(remoteFields))
	for i, f := range remoteFields {
		out[i] = f.key
	}
	return out
}

// Sources lists the sources r sets, in the order of its fields.
func (r *Remote) Sources() []Source {
	if r == nil {
		return nil
	}
	v := reflect.ValueOf(r).Elem()
	var out []Source
	for _, f := range remoteFields {
		if fv := v.Field(f.index); !fv.IsNil() {
			out = append(out, fv.Elem().Interface().(Source))
		}
	}
	return out
}

// Source is the one source r sets, nil when it sets none or several.
func (r *Remote) Source() Source {
	if s := r.Sources(); len(s) == 1 {
		return s[0]
	}
	return nil
}

// Set replaces the field of s's kind with s (a pinned copy, say).
func (r *Remote) Set(s Source) error {
	v := reflect.ValueOf(r).Elem()
	for _, f := range remoteFields {
		if f.key == s.SourceKind() {
			fv := v.Field(f.index)
			sv := reflect.ValueOf(s)
			if sv.Kind() == reflect.Pointer {
				sv = sv.Elem()
			}
			p := reflect.New(fv.Type().Elem())
			p.Elem().Set(sv)
			fv.Set(p)
			return nil
		}
	}
	return errors.New("no field for sources of kind " + s.SourceKind())
}

// OneOf is "path, git or oci": the choices of a place that names a folder
// by path or by one remote source, for messages.
func OneOf(first ...string) string {
	all := append(first, SourceKinds()...)
	if len(all) == 1 {
		return all[0]
	}
	return strings.Join(all[:len(all)-1], ", ") + " or " + all[len(all)-1]
}

// SourceError is a problem of one field of a source.
type SourceError struct {
	Field string // below the source: "url"
	Msg   string
}

func (e *SourceError) Error() string { return e.Field + ": " + e.Msg }

// GitSource is a folder at a git reference.
type GitSource struct {
	URL    string `yaml:"url" json:"url"`
	Ref    string `yaml:"ref,omitempty" json:"ref,omitempty"`
	Commit string `yaml:"commit,omitempty" json:"commit,omitempty"`
	Path   string `yaml:"path,omitempty" json:"path,omitempty"`
}

// SourceKind is "git".
func (g GitSource) SourceKind() string { return "git" }

// SourceURL is the repository URL.
func (g GitSource) SourceURL() string { return g.URL }

// SourceRef is the branch or tag.
func (g GitSource) SourceRef() string { return g.Ref }

// SourcePin is the pinned commit.
func (g GitSource) SourcePin() string { return g.Commit }

// SourcePath is the folder in the repository.
func (g GitSource) SourcePath() string { return g.Path }

// WithPin pins the commit.
func (g GitSource) WithPin(pin string) Source { g.Commit = pin; return g }

// WithPath names another folder of the repository.
func (g GitSource) WithPath(p string) Source { g.Path = p; return g }

// LockFields are ref and commit.
func (g GitSource) LockFields() (string, string) { return "ref", "commit" }

// Check needs a URL.
func (g GitSource) Check() error {
	if g.URL == "" {
		return &SourceError{Field: "url", Msg: "is required"}
	}
	return nil
}

// OCISource is a folder of an OCI artifact (Flux's `flux push artifact`,
// Argo CD's OCI sources, `kudo-render push`): oci://registry/repository
// at a tag or a digest.
type OCISource struct {
	// URL is oci://registry[:port]/repository.
	URL string `yaml:"url" json:"url"`
	// Tag is resolved to a digest (the pin `kudo-render lock` writes).
	Tag string `yaml:"tag,omitempty" json:"tag,omitempty"`
	// Digest pins the manifest (sha256:<hex>); it wins over Tag.
	Digest string `yaml:"digest,omitempty" json:"digest,omitempty"`
	// Path is the folder inside the artifact.
	Path string `yaml:"path,omitempty" json:"path,omitempty"`
	// Verify, when set, requires a valid signature of the manifest before
	// anything of the artifact is pulled.
	Verify *OCIVerify `yaml:"verify,omitempty" json:"verify,omitempty"`
}

// OCIVerify says whose signature an OCI artifact must carry.
type OCIVerify struct {
	// Provider is notation (the default; verified in process).
	Provider string `yaml:"provider,omitempty" json:"provider,omitempty"`
	// Certificate is the trusted root certificate (PEM): a file relative
	// to the FunctionConfig's folder, or the PEM text itself.
	Certificate string `yaml:"certificate,omitempty" json:"certificate,omitempty"`
	// Identities are the trusted identities of the signing certificate
	// ("x509.subject: CN=release,O=Example"); empty trusts any identity
	// the certificate issued.
	Identities []string `yaml:"identities,omitempty" json:"identities,omitempty"`
}

// SourceKind is "oci".
func (o OCISource) SourceKind() string { return "oci" }

// SourceURL is the oci:// URL.
func (o OCISource) SourceURL() string { return o.URL }

// SourceRef is the tag.
func (o OCISource) SourceRef() string { return o.Tag }

// SourcePin is the digest.
func (o OCISource) SourcePin() string { return o.Digest }

// SourcePath is the folder in the artifact.
func (o OCISource) SourcePath() string { return o.Path }

// WithPin pins the digest.
func (o OCISource) WithPin(pin string) Source { o.Digest = pin; return o }

// WithPath names another folder of the artifact.
func (o OCISource) WithPath(p string) Source { o.Path = p; return o }

// LockFields are tag and digest.
func (o OCISource) LockFields() (string, string) { return "tag", "digest" }

// Check needs an oci:// URL, a tag or a digest, and a certificate to
// verify with.
func (o OCISource) Check() error {
	switch {
	case !strings.HasPrefix(o.URL, "oci://"):
		return &SourceError{Field: "url", Msg: fmt.Sprintf("%q: must be oci://registry/repository", o.URL)}
	case o.Tag == "" && o.Digest == "":
		return &SourceError{Field: "tag", Msg: "a tag or a digest is required"}
	case o.Verify != nil && o.Verify.Provider != "" && o.Verify.Provider != "notation":
		return &SourceError{Field: "verify.provider", Msg: fmt.Sprintf("%q: only notation is verified in process (docs/oci.md: cosign)", o.Verify.Provider)}
	case o.Verify != nil && o.Verify.Certificate == "":
		return &SourceError{Field: "verify.certificate", Msg: "is required"}
	}
	return nil
}
