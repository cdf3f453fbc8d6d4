package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/spf13/cobra"

	"github.com/kudo-render/kudo-render/internal/output"
	"github.com/kudo-render/kudo-render/internal/source/gitsource"
	"github.com/kudo-render/kudo-render/internal/source/oci"
)

func newPush(g *gitFlags, out *output.Writer, stderr io.Writer) *cobra.Command {
	var o oci.PushOptions
	var created string
	c := &cobra.Command{
		Use:   "push DIR oci://REGISTRY/REPOSITORY:TAG",
		Short: "Push a package (or a rendered output folder) as an OCI artifact for Flux or Argo CD",
		Long: `Pack DIR (a package, or a folder rendered with -o) into an OCI artifact
and push it under TAG: --format flux writes Flux's format (flux push
artifact: an OCIRepository reads it), --format argocd the OCI image layer
Argo CD reads by default. The artifact is reproducible: the same files and
annotations give the same digest (fixed times, modes and owners).

The annotations org.opencontainers.image.source and .revision default to
the git repository DIR is in (the origin URL without credentials,
<branch>@sha1:<commit>) and .created to that commit's time; outside git,
give --source and --revision, and .created is SOURCE_DATE_EPOCH or
1970-01-01. A registry on the loopback address is spoken to over plain
HTTP, every other over HTTPS; credentials come from the Docker config or
KUDO_RENDER_OCI_USERNAME and _PASSWORD (docs/oci.md). stdout gets the
pushed reference with its digest, for spec.framework.oci.digest.`,
		Example: "  kudo-render push examples/mysql oci://127.0.0.1:5000/kudo/mysql:5.7 --format flux   # needs network",
		Args:    cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error {
			dir, target := args[0], args[1]
			if err := pushDefaults(dir, &o, created); err != nil {
				return err
			}
			r, _, err := oci.ParseTarget(target)
			if err != nil {
				return err
			}
			creds, err := oci.Credentials(os.Getenv, r.Registry)
			if err != nil {
				return err
			}
			src, err := oci.New(oci.Options{CacheDir: os.TempDir(), Credentials: creds, Warn: warner(stderr), Deadline: g.deadline})
			if err != nil {
				return err
			}
			desc, err := src.Push(context.Background(), dir, target, o)
			if err != nil {
				return err
			}
			return out.Write(fmt.Appendf(nil, "%s@%s\n", target, desc.Digest))
		},
	}
	c.Flags().StringVar(&o.Format, "format", "flux", "artifact format: flux (Flux's OCIRepository) or argocd (Argo CD's OCI source)")
	c.Flags().StringVar(&o.Source, "source", "", "org.opencontainers.image.source (default: DIR's git origin)")
	c.Flags().StringVar(&o.Revision, "revision", "", "org.opencontainers.image.revision (default: <branch>@sha1:<commit> of DIR's git repository)")
	c.Flags().StringVar(&created, "created", "", "org.opencontainers.image.created, RFC 3339 (default: the commit's time, else SOURCE_DATE_EPOCH, else 1970-01-01)")
	return c
}

// pushDefaults fills the annotations push was not given from the git
// repository dir is in, else from SOURCE_DATE_EPOCH.
func pushDefaults(dir string, o *oci.PushOptions, created string) error {
	if _, ok := oci.Formats[o.Format]; !ok {
		return fmt.Errorf("--format %q: want flux or argocd", o.Format)
	}
	if created != "" {
		t, err := time.Parse(time.RFC3339, created)
		if err != nil {
			return fmt.Errorf("--created %q: want RFC 3339 (2026-01-02T15:04:05Z)", created)
		}
		o.Created = t
	}
	if o.Source == "" || o.Revision == "" || created == "" {
		repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
		if err == nil {
			return gitDefaults(repo, o, created == "")
		}
	}
	if o.Source == "" || o.Revision == "" {
		return fmt.Errorf("%s is not in a git repository: give --source and --revision (Flux shows them)", dir)
	}
	if created == "" {
		o.Created = time.Unix(0, 0)
		if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("SOURCE_DATE_EPOCH %q: want seconds since 1970", s)
			}
			o.Created = time.Unix(n, 0)
		}
	}
	return nil
}

// gitDefaults takes the origin URL, the branch and commit, and the
// commit's time from repo.
func gitDefaults(repo *git.Repository, o *oci.PushOptions, setCreated bool) error {
	head, err := repo.Head()
	if err != nil {
		return fmt.Errorf("the git repository has no commit: %w", err)
	}
	if o.Source == "" {
		if rem, err := repo.Remote("origin"); err == nil && len(rem.Config().URLs) > 0 {
			o.Source = gitsource.Scrub(rem.Config().URLs[0])
		}
	}
	if o.Revision == "" {
		o.Revision = "sha1:" + head.Hash().String()
		if head.Name().IsBranch() {
			o.Revision = head.Name().Short() + "@" + o.Revision
		}
	}
	if setCreated {
		c, err := repo.CommitObject(head.Hash())
		if err != nil {
			return err
		}
		o.Created = c.Committer.When
	}
	if strings.TrimSpace(o.Source) == "" {
		return errors.New("the git repository has no origin: give --source")
	}
	return nil
}
