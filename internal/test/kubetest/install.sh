#!/usr/bin/env bash
# Installs the real Kubernetes API server, its controller manager (for
# garbage collection) and the etcd the tests of internal/test/kubetest run against, once, into the user's cache, and prints the
# folder that holds them (give it to the tests as KUBEBUILDER_ASSETS):
#
#   internal/test/kubetest/install.sh            # progress on stderr, the folder on stdout
#
# kube-apiserver and kube-controller-manager are built from the k8s.io/kubernetes module on the Go module
# proxy, at the version of the k8s.io/* libraries in go.mod (KUBE_VERSION
# overrides it). That module's go.mod replaces the staging modules (k8s.io/api,
# ...) with folders its zip does not hold: they are pointed at the published
# k8s.io/* modules of the same minor version instead. The build takes 10 to 20
# minutes on two cores, once; later runs find the binary and return at once.
#
# etcd is the system's (Debian's etcd-server package, installed with apt-get
# when missing). Where there is neither an etcd 3.4 or newer nor apt-get, or
# when KUDO_RENDER_ETCD_VERSION is set (v3.6.16, ...), etcd's server is built
# from the go.etcd.io/etcd/server/v3 module instead (a few minutes, once).
#
# The folder is $KUDO_RENDER_KUBE_ASSETS, else
# ${XDG_CACHE_HOME:-~/.cache}/kudo-render/kube/<version>. Runs at the same time
# wait for each other (flock).
set -euo pipefail
export GOTOOLCHAIN=local
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
version="${KUBE_VERSION:-$(cd "$root" && go list -m -f '{{.Version}}' k8s.io/api | sed 's/^v0\./v1./' || true)}"
case "$version" in
  v1.*.*) ;;
  *) echo "install.sh: cannot tell the Kubernetes version from go.mod (k8s.io/api $version); set KUBE_VERSION" >&2; exit 1 ;;
esac
cache="${KUDO_RENDER_KUBE_ASSETS:-${XDG_CACHE_HOME:-$HOME/.cache}/kudo-render/kube/$version}"
mkdir -p "$cache"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$cache/.install.lock"
  flock 9
fi

work=""
hb=""
cleanup() {
  heartbeat_stop
  if [ -n "$work" ]; then chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; fi
}
trap cleanup EXIT
tmpdir() { if [ -z "$work" ]; then work="$(mktemp -d)"; fi; }

# heartbeat_start WHAT: a line on stderr every minute while a long build
# runs, so that CI logs show progress.
heartbeat_start() {
  ( n=0; while sleep 60; do n=$((n + 1)); echo "install.sh: still $1 ($n min)"; done ) 1>&2 9>&- &
  hb=$!
}
heartbeat_stop() {
  if [ -n "$hb" ]; then kill "$hb" 2>/dev/null || true; wait "$hb" 2>/dev/null || true; hb=""; fi
}

# etcd_ok FILE: FILE is an etcd server of version 3.4 or newer.
etcd_ok() {
  local v
  v="$("$1" --version 2>/dev/null | sed -n 's/^etcd Version: \([0-9]*\)\.\([0-9]*\)\..*/\1 \2/p')" || return 1
  [ -n "$v" ] || return 1
  set -- $v
  [ "$1" -gt 3 ] || { [ "$1" -eq 3 ] && [ "$2" -ge 4 ]; }
}

# build_etcd VERSION: etcd's server from the Go module proxy.
build_etcd() {
  tmpdir
  echo "install.sh: building etcd $1 from go.etcd.io/etcd/server/v3 (a few minutes, once)" >&2
  mkdir -p "$work/etcd"
  heartbeat_start "building etcd"
  (
    cd "$work/etcd"
    go mod init kudo-render.invalid/etcd
    GOFLAGS=-mod=mod go get "go.etcd.io/etcd/server/v3@$1"
    GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$cache/etcd.tmp" go.etcd.io/etcd/server/v3
  ) >"$cache/etcd-build.log" 2>&1 || { tail -30 "$cache/etcd-build.log" >&2; echo "install.sh: the etcd build failed (log: $cache/etcd-build.log)" >&2; exit 1; }
  heartbeat_stop
  rm -f "$cache/etcd"
  mv "$cache/etcd.tmp" "$cache/etcd"
}

if [ -n "${KUDO_RENDER_ETCD_VERSION:-}" ]; then
  # A built etcd is a regular file; a link is the system's.
  if [ -L "$cache/etcd" ] || ! [ -x "$cache/etcd" ] || ! "$cache/etcd" --version 2>/dev/null | grep -q "^etcd Version: ${KUDO_RENDER_ETCD_VERSION#v}\$"; then
    build_etcd "$KUDO_RENDER_ETCD_VERSION"
  fi
elif ! { [ -x "$cache/etcd" ] && etcd_ok "$cache/etcd"; }; then
  sys="$(command -v etcd || true)"
  if [ -z "$sys" ] || ! etcd_ok "$sys"; then
    if command -v apt-get >/dev/null 2>&1; then
      echo "install.sh: installing etcd-server with apt-get" >&2
      # as root, else through sudo where it asks no password
      apt=apt-get
      if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then apt="sudo -n apt-get"; fi
      ($apt update -qq && $apt install -y -qq etcd-server) >/dev/null 2>&1 \
        || echo "install.sh: apt-get could not install etcd-server" >&2
    fi
    sys="$(command -v etcd || true)"
  fi
  if [ -n "$sys" ] && etcd_ok "$sys"; then
    ln -sfn "$sys" "$cache/etcd"
  else
    build_etcd v3.6.16
  fi
fi

# The cached binaries are kept when they report the version wanted;
# kube-controller-manager runs the garbage collector for the tests that
# delete owners (internal/adapter/adopt).
missing=""
for bin in kube-apiserver kube-controller-manager; do
  if ! { [ -x "$cache/$bin" ] && [ "$("$cache/$bin" --version 2>/dev/null)" = "Kubernetes $version" ]; }; then
    missing="$missing $bin"
  fi
done
if [ -n "$missing" ]; then
  tmpdir
  echo "install.sh: building$missing $version (10 to 20 minutes, once; log in $cache/build.log)" >&2
  # Outside any module: downloading must not touch the caller's go.mod.
  dir="$(cd "$work" && go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" || true
  if [ -z "$dir" ] || [ ! -f "$dir/go.mod" ]; then
    echo "install.sh: cannot download k8s.io/kubernetes@$version" >&2
    exit 1
  fi
  cp -r "$dir" "$work/src" && chmod -R u+w "$work/src"
  heartbeat_start "building$missing"
  (
    cd "$work/src"
    rm -f go.work go.work.sum
    staging="v0.${version#v1.}"
    for m in $(sed -n 's#^[[:space:]]*\(k8s.io/[a-z0-9-]*\) => ./staging/.*#\1#p' go.mod); do
      go mod edit -replace "$m=$m@$staging"
    done
    # What --version and /version report, as Kubernetes'
    # hack/lib/version.sh sets it.
    minor="${version#v1.}"; minor="${minor%%.*}"
    ldflags="-s -w"
    for pkg in k8s.io/client-go/pkg/version k8s.io/component-base/version; do
      ldflags="$ldflags -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean"
    done
    for bin in $missing; do
      GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" -o "$cache/$bin.tmp" "./cmd/$bin"
    done
  ) >"$cache/build.log" 2>&1 || { tail -30 "$cache/build.log" >&2; echo "install.sh: the build of$missing failed (log: $cache/build.log)" >&2; exit 1; }
  heartbeat_stop
  for bin in $missing; do mv "$cache/$bin.tmp" "$cache/$bin"; done
  echo "install.sh:$missing $version in $cache" >&2
fi
echo "$cache"
