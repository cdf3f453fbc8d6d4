package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/kudo-render/kudo-render/internal/image"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	out := fs.String("out", "bin/image", "OCI image layout folder")
	push := fs.Bool("push", false, "push the layout in -out to each REF argument")
	version := fs.String("version", "", "version the binaries are stamped with")
	revision := fs.String("revision", "", "source commit")
	source := fs.String("source", "https://github.com/kudo-render/kudo-render", "source repository URL")
	created := fs.String("created", "0", "creation time, seconds since the epoch (SOURCE_DATE_EPOCH)")
	ca := fs.String("ca", "/etc/ssl/certs/ca-certificates.crt", "PEM CA bundle copied into the image")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *push {
		return pushAll(*out, fs.Args())
	}
	sec, err := strconv.ParseInt(strings.TrimSpace(*created), 10, 64)
	if err != nil {
		return fmt.Errorf("-created %q: %w", *created, err)
	}
	bins := map[string]string{}
	for _, a := range fs.Args() {
		arch, file, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("argument %q: want ARCH=BINARY", a)
		}
		bins[arch] = file
	}
	idx, err := image.Build(image.Options{
		Binaries:      bins,
		CACerts:       *ca,
		Version:       *version,
		Revision:      *revision,
		Source:        *source,
		Created:       time.Unix(sec, 0).UTC(),
		RequireStatic: true,
	})
	if err != nil {
		return err
	}
	d, err := image.Write(*out, idx, *version)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out+"/digest", []byte(d.String()+"\n"), 0o644); err != nil {
		return err
	}
	fmt.Printf("%s %s (version %s)\n", *out, d, *version)
	return nil
}

func pushAll(dir string, refs []string) error {
	if len(refs) == 0 {
		return errors.New("-push: name the image, e.g. make image-push IMAGE=registry.example.com/team/kudo-render:v1.2.3")
	}
	idx, err := image.Read(dir)
	if err != nil {
		return err
	}
	d, err := idx.Digest()
	if err != nil {
		return err
	}
	var kc authn.Keychain = authn.DefaultKeychain
	if u := os.Getenv("KUDO_RENDER_REGISTRY_USER"); u != "" {
		kc = staticKeychain{authn.FromConfig(authn.AuthConfig{
			Username: u, Password: os.Getenv("KUDO_RENDER_REGISTRY_PASSWORD"),
		})}
	}
	for _, r := range refs {
		ref, err := name.ParseReference(r)
		if err != nil {
			return err
		}
		if err := remote.WriteIndex(ref, idx, remote.WithAuthFromKeychain(kc)); err != nil {
			return fmt.Errorf("push %s: %w", r, err)
		}
		fmt.Printf("%s@%s\n", ref.Context().Name(), d)
	}
	return nil
}

type staticKeychain struct{ a authn.Authenticator }

func (k staticKeychain) Resolve(authn.Resource) (authn.Authenticator, error) { return k.a, nil }
