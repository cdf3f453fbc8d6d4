#!/usr/bin/env bash
# Installs the clients the tests use when they are missing (make test and
# .ci/run call it), and fails naming what it could not install: the tests
# then fail instead of skipping (KUDO_RENDER_REQUIRE_TOOLS=1). Progress on
# stderr; it prints on stdout only the KUDO_RENDER_MERMAID folder, when
# Mermaid's parser is installed (node and npm are optional: without them
# the Mermaid check is skipped, saying so).
set -euo pipefail
cd "$(dirname "$0")/.."
export GOTOOLCHAIN=local
export PATH="$PATH:$(go env GOPATH)/bin"
# apt-get as root, else through sudo where it asks no password (a
# developer's machine, a CI runner); else it fails and the tool is named.
apt-get() {
  if [ "$(id -u)" -eq 0 ]; then command apt-get "$@"
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo -n apt-get "$@"
  else return 1; fi
}
{
# kpt (Debian package google-cloud-cli-kpt) for the kpt integration test.
if ! command -v kpt >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq google-cloud-cli-kpt) >/dev/null 2>&1 \
    || (apt-get install -y -qq kpt >/dev/null 2>&1) || echo "warning: kpt could not be installed"
fi
# the kustomize CLI (kubectl kustomize cannot run exec functions).
if ! command -v kustomize >/dev/null 2>&1; then
  go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2
fi
# git (the git source tests build repositories and serve them with git http-backend).
if ! command -v git >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq git) >/dev/null 2>&1 || echo "warning: git could not be installed"
fi
# a C compiler (go test -race needs cgo).
if ! command -v gcc >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq gcc libc6-dev) >/dev/null 2>&1 || echo "warning: gcc could not be installed"
fi

# Graphviz (the graph command's DOT output is checked with dot).
if ! command -v dot >/dev/null 2>&1; then
  (apt-get install -y -qq graphviz || (apt-get update -qq && apt-get install -y -qq graphviz)) >/dev/null 2>&1 \
    || echo "warning: graphviz could not be installed"
fi
# Mermaid's own parser (the graph command's Mermaid output is checked with it).
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  KUDO_RENDER_MERMAID="${TMPDIR:-/tmp}/kudo-render-mermaid"
  if [ ! -d "$KUDO_RENDER_MERMAID/node_modules/mermaid" ]; then
    mkdir -p "$KUDO_RENDER_MERMAID"
    timeout 300 npm install --silent --no-audit --no-fund --prefix "$KUDO_RENDER_MERMAID" mermaid@11 jsdom@24 >/dev/null 2>&1 \
      || { echo "warning: mermaid could not be installed"; KUDO_RENDER_MERMAID=""; }
  fi
fi


missing=""
for t in kpt kustomize git gcc dot; do
  command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
if [ -n "$missing" ]; then
  echo "error: the tests need:$missing (install them: kpt is Debian's google-cloud-cli-kpt, kustomize is go install sigs.k8s.io/kustomize/kustomize/v5@v5.8.2, dot is graphviz)"
  exit 1
fi
} 1>&2
echo "${KUDO_RENDER_MERMAID:-}"
