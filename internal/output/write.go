package output

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// ManifestName is the file, inside an output folder, that lists the files
// kudo-render wrote there (one slash path per line, sorted).
const ManifestName = ".kudo-render-files"

// maxManifest bounds the manifest read back.
const maxManifest = 16 << 20

// CheckPath checks a file path of an output tree: relative, slash
// separated, clean, without "..", NUL or backslash, and not the manifest.
func CheckPath(p string) error {
	switch {
	case p == "" || path.IsAbs(p) || path.Clean(p) != p:
		return fmt.Errorf("output path %q is not a clean relative path", p)
	case strings.ContainsAny(p, "\x00\\"):
		return fmt.Errorf("output path %q contains a NUL or a backslash", p)
	case p == ".." || strings.HasPrefix(p, "../") || p == ".":
		return fmt.Errorf("output path %q leaves the output folder", p)
	case p == ManifestName:
		return fmt.Errorf("output path %q is kudo-render's manifest", p)
	}
	return nil
}

// WriteDir makes dir hold files (slash paths relative to dir -> content)
// all or nothing. Files listed in dir's manifest that files does not hold
// are removed; every other entry of dir stays as it is. dir is created
// when missing, with its missing parents (as mkdir -p; they stay when
// the write fails).
func WriteDir(dir string, files map[string][]byte) error {
	return writeDir(dir, files, noGuard{})
}

// guard lets a Writer stop a folder write while it is built (the watchdog,
// a signal), and tells it when the write can no longer be stopped.
type guard interface {
	// building is told the folder the tree is built in.
	building(tmp string)
	// stopped reports whether the build must stop (checked before each
	// file and each fsync).
	stopped() bool
	// commit reports whether the tree may be swapped in; from then on
	// the write is not stopped.
	commit() bool
}

type noGuard struct{}

func (noGuard) building(string) {}
func (noGuard) stopped() bool   { return false }
func (noGuard) commit() bool    { return true }

func writeDir(dir string, files map[string][]byte, g guard) error {
	for p := range files {
		if err := CheckPath(p); err != nil {
			return err
		}
	}
	target, err := resolveDir(dir)
	if err != nil {
		return err
	}
	owned, err := readManifest(target)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(target), "."+filepath.Base(target)+".kudo-render-")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	g.building(tmp)
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := buildTree(tmp, target, owned, files, g); err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	if !g.commit() {
		return ErrExpired
	}
	if err := swap(tmp, target); err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	ok = true
	return nil
}

// resolveDir returns the real path of dir (it may itself be a symbolic
// link the user chose), refusing folders whose swap would surprise: the
// working directory or one of its parents, and repository roots.
func resolveDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("cannot write %s: %w", dir, err)
	}
	if info, err := os.Stat(abs); err == nil && !info.IsDir() {
		return "", fmt.Errorf("cannot write %s: not a folder", dir)
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(abs, wd); err == nil && !strings.HasPrefix(rel, "..") {
			return "", fmt.Errorf("cannot write %s: it holds the working directory; give -o a folder of its own", dir)
		}
	}
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
		return "", fmt.Errorf("cannot write %s: it is a git repository's root; give -o a folder of its own", dir)
	}
	return abs, nil
}

// readManifest returns the files kudo-render wrote into dir last time.
func readManifest(dir string) (map[string]bool, error) {
	owned := map[string]bool{}
	f, err := os.OpenFile(filepath.Join(dir, ManifestName), os.O_RDONLY|oNoFollow, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return owned, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", filepath.Join(dir, ManifestName), err)
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxManifest))
	for sc.Scan() {
		if p := sc.Text(); CheckPath(p) == nil {
			owned[p] = true
		}
	}
	return owned, sc.Err()
}

// buildTree fills tmp: the entries of old that kudo-render does not own,
// then files and the manifest; everything is fsynced (syncAll). It stops
// with ErrExpired when g says so.
func buildTree(tmp, old string, owned map[string]bool, files map[string][]byte, g guard) error {
	if info, err := os.Stat(old); err == nil {
		if err := os.Chmod(tmp, info.Mode().Perm()); err != nil {
			return err
		}
		if err := carryOver(tmp, old, owned, files); err != nil {
			return err
		}
	} else if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	names := slices.Sorted(maps.Keys(files))
	dirs := map[string]bool{tmp: true}
	written := make([]string, 0, len(names)+1)
	for _, p := range names {
		if g.stopped() {
			return ErrExpired
		}
		if err := writeFile(tmp, p, files[p], dirs); err != nil {
			return err
		}
		written = append(written, filepath.Join(tmp, filepath.FromSlash(p)))
	}
	manifest := strings.Join(names, "\n")
	if manifest != "" {
		manifest += "\n"
	}
	if err := writeFile(tmp, ManifestName, []byte(manifest), dirs); err != nil {
		return err
	}
	written = append(written, filepath.Join(tmp, ManifestName))
	if err := syncAll(written, g); err != nil {
		return err
	}
	return syncAll(slices.Sorted(maps.Keys(dirs)), g)
}

// syncers is how many fsyncs run at once: file systems commit concurrent
// fsyncs together (ext4's journal: 20,000 files take 3 s instead of 30 s
// one after the other).
const syncers = 16

// syncAll fsyncs every file or folder of paths, syncers at a time, and
// returns the first error (or ErrExpired when g stops it).
func syncAll(paths []string, g guard) error {
	next := make(chan string)
	errs := make(chan error, syncers)
	var wg sync.WaitGroup
	for range min(syncers, len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				if err := syncPath(p); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
feed:
	for _, p := range paths {
		if g.stopped() {
			err = ErrExpired
			break
		}
		select {
		case next <- p:
		case err = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err == nil && len(errs) > 0 {
		err = <-errs
	}
	return err
}

// carryOver links every entry of old that kudo-render does not own into
// tmp, as it is: symbolic links are copied as links, never followed.
func carryOver(tmp, old string, owned map[string]bool, files map[string][]byte) error {
	return filepath.WalkDir(old, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(old, p)
		if err != nil || rel == "." {
			return err
		}
		slash := filepath.ToSlash(rel)
		if slash == ManifestName || owned[slash] {
			return nil
		}
		if _, clash := files[slash]; clash {
			return fmt.Errorf("%s is in the way: kudo-render did not write it, so it does not replace it", p)
		}
		dst := filepath.Join(tmp, rel)
		switch {
		case d.IsDir():
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.Mkdir(dst, info.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		default:
			return linkOrCopy(p, dst)
		}
	})
}

// linkOrCopy hard-links src to dst, or copies it where links fail.
func linkOrCopy(src, dst string) error {
	if os.Link(src, dst) == nil {
		return nil
	}
	in, err := os.OpenFile(src, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file, a folder or a link: cannot carry it over", src)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// writeFile creates root/p (never following or replacing anything) and
// its folders; syncAll fsyncs it.
func writeFile(root, p string, data []byte, dirs map[string]bool) error {
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := mkdirs(root, filepath.Dir(full), dirs); err != nil {
		return err
	}
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// mkdirs creates dir below root; an existing entry on the way must be a
// real folder (not a link to one).
func mkdirs(root, dir string, dirs map[string]bool) error {
	if dirs[dir] {
		return nil
	}
	if dir != root {
		if err := mkdirs(root, filepath.Dir(dir), dirs); err != nil {
			return err
		}
	}
	info, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(dir, 0o755); err != nil {
			return err
		}
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s is in the way: it is not a folder", dir)
	}
	dirs[dir] = true
	return nil
}

func syncDir(dir string) error { return syncPath(dir) }

// syncPath fsyncs a file or a folder (a folder that cannot be fsynced,
// on some systems, is not an error).
func syncPath(p string) error {
	f, err := os.OpenFile(p, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}
