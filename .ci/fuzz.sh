#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME executions or time
# (make fuzz; default 2000x): one instrumented test binary per package
# (go test -c -fuzz, built once however many targets the package has),
# which runs each target in turn from the package's folder with the
# arguments go test -fuzz gives it (the seed corpus in testdata/fuzz, a
# failing input written there, the generated corpus in
# $GOCACHE/fuzz/<package>). Targets are read from the test files the
# package builds (func FuzzX(f *testing.F)), rather than by building every
# package's tests to list them. Packages after FUZZTIME narrow the run
# (.ci/fuzz.sh 200x ./internal/yaml/...).
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${1:-2000x}"
shift || true
go="${GO:-go}"
cache="$($go env GOCACHE)/fuzz"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
$go list -f '{{.ImportPath}} {{.Dir}} {{join .TestGoFiles " "}} {{join .XTestGoFiles " "}}' "${@:-./...}" |
while read -r pkg dir files; do
  [ -n "$files" ] || continue
  targets=$(cd "$dir" && sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*\*testing\.F).*/\1/p' $files | sort -u)
  [ -n "$targets" ] || continue
  exe="$bin/$(echo "$pkg" | tr / _).test"
  $go test -c -fuzz=. -o "$exe" "$pkg"
  for t in $targets; do
    echo "fuzz $pkg $t"
    log="$bin/log"
    if ! (cd "$dir" && "$exe" -test.run='^$' -test.fuzz="^$t\$" -test.fuzztime="$fuzztime" \
        -test.fuzzcachedir="$cache/$pkg" -test.paniconexit0 -test.timeout=10m) >"$log" 2>&1; then
      grep -v '^fuzz: elapsed' "$log" | tail -40
      exit 1
    fi
  done
  rm -f "$exe"
done
