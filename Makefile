# kudo-render: make demo renders the bundled example, make test runs the suite,
# make help lists the targets (each `## target: text` line below).
export GOTOOLCHAIN := local
GO       ?= go
BIN      := bin/kudo-render
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X github.com/kudo-render/kudo-render/cmd.Version=$(VERSION)
# A count of executions, not a duration: go1.26's fuzz coordinator can fail a
# duration run with "context deadline exceeded" at its end (golang/go#75804).
FUZZTIME ?= 2000x

# vet, the tests and the binaries the tests build (make build in the
# doc-command test, go build in the hostile and integration suites) in the
# configuration of make build (static, -trimpath): one build cache for all
# of them, where each configuration compiled all 1,600 packages again.
TESTENV := CGO_ENABLED=0 GOFLAGS="-trimpath $(GOFLAGS)"

# Packages that run work on several goroutines: make test runs their tests
# under the race detector too.
RACE_PKGS := ./cmd/... ./internal/render/tmpl/... ./internal/engine/... ./internal/yaml/object/... ./internal/kube/... ./internal/par/... ./fn/... ./internal/runner/... ./internal/output/... ./internal/postprocess/digest/... ./internal/postprocess/enhance/... ./internal/postprocess/refs/...

.PHONY: all help build demo test unit race vet fuzz bench bench-compare weight clean kube-assets differential generate

all: build

## help: list the documented targets
help:
	@awk 'sub(/^## /, "") { i = index($$0, ": "); printf "  %-15s %s\n", substr($$0, 1, i - 1), substr($$0, i + 2) }' $(MAKEFILE_LIST)

## build: bin/kudo-render, static (CGO_ENABLED=0), stamped with VERSION (git describe)
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) .

## demo: build and render the KEP-0009 MySQL example framework
demo: build
	$(BIN) render examples/mysql/render.yaml

## test: what CI runs: vet, every test (none skips for a missing client), the race detector, a short fuzz run
# It installs the clients the tests use when they are missing (.ci/tools.sh:
# kpt, kustomize, git, gcc, Graphviz; else an error naming them).
test: export KUDO_RENDER_REQUIRE_TOOLS := 1
test: vet unit race fuzz

## generate: rewrite the generated files (internal/kube/types_gen.go, internal/kube/validate/apply_gen.go), then review the diff
# TestAPITypes and TestApplySchema fail while their file differs from what they generate.
generate:
	$(GO) generate ./...

## vet: go vet and gofmt
vet:
	$(TESTENV) $(GO) vet ./...
	@out=$$($$($(GO) env GOROOT)/bin/gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt -w needed on:"; echo "$$out"; exit 1; fi

## unit: go test ./... alone (a test whose client is missing skips, saying so)
unit: kube-assets
	@m=""; if [ "$$KUDO_RENDER_REQUIRE_TOOLS" = 1 ]; then m=$$(.ci/tools.sh) || exit 1; fi; \
	set -x; KUDO_RENDER_MERMAID=$${KUDO_RENDER_MERMAID:-$$m} KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$$(internal/test/kubetest/install.sh)} $(TESTENV) $(GO) test -count=1 ./...

## kube-assets: the API server tests' kube-apiserver, kube-controller-manager and etcd, built once (10 to 20 minutes)
# They go into ~/.cache/kudo-render/kube (internal/test/kubetest/install.sh), and
# are found there at once afterwards; KUBEBUILDER_ASSETS names others instead.
kube-assets:
	@if [ -z "$$KUBEBUILDER_ASSETS" ]; then internal/test/kubetest/install.sh >/dev/null; fi

## differential: the differential test against the real API server, every case (docs/validation.md)
# make test judges a sample; another sample: make differential FLAGS='-cases 20000 -seed 7'
differential: kube-assets
	KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$$(internal/test/kubetest/install.sh)} $(GO) test -count=1 -timeout 60m -v -run '^TestDifferential$$' ./internal/test/differential -args $(or $(FLAGS),-cases 0 -service-rounds 20 -reduce 50)

## race: the tests of the packages that use goroutines, under the race detector
race:
	CGO_ENABLED=1 $(GO) test -count=1 -race $(RACE_PKGS)

## fuzz: run each fuzz target for FUZZTIME executions (longer: make fuzz FUZZTIME=1000000x, or a duration: FUZZTIME=5m); one instrumented test binary per package (.ci/fuzz.sh)
fuzz:
	GO=$(GO) .ci/fuzz.sh $(FUZZTIME)

## bench: loading and rendering benchmarks
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

## bench-compare: kudo-render beside Helm 3.22 and Helm 4.3, whole processes (docs/performance.md)
# Paired runs: medians of wall time, CPU time and peak memory; installs both
# helms when missing. BASE_REV=49796cc also builds that commit and measures it
# in the same rounds; ROWS=regexp picks rows, RUNS=n the runs.
bench-compare: build
	@set -e; base=""; if [ -n "$(BASE_REV)" ]; then base=bin/kudo-render-$(BASE_REV); \
	  if [ ! -x $$base ]; then d=$$(mktemp -d); git archive $(BASE_REV) | tar -x -C $$d; \
	    (cd $$d && CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w" -o $(CURDIR)/$$base .); rm -rf $$d; fi; fi; \
	$(GO) run ./internal/test/benchcompare -bin $(BIN) -corpus $${KUDO_RENDER_CORPUS:-../shared/corpus} -out bench-out \
	  $${base:+-base $$base} $(if $(ROWS),-rows '$(ROWS)') $(if $(RUNS),-runs $(RUNS))

## weight: what each linked package costs every process at start-up (docs/performance.md)
# Initialisers' time and allocations, code size, the chain that links each
# package, and what leaving it out would save; WITHOUT=pkg,pkg for several.
weight: build
	$(GO) run ./internal/test/weight -bin $(BIN) $(if $(WITHOUT),-without $(WITHOUT))

## clean: remove bin/
clean:
	rm -rf bin

# The container image (docs/image.md): built without a Docker daemon and
# without a base image (internal/image, internal/image/build) as an OCI image layout.
IMAGE_DIR      ?= bin/image
IMAGE_ARCHS    ?= amd64 arm64
IMAGE_CA       ?= /etc/ssl/certs/ca-certificates.crt
IMAGE_SOURCE   ?= https://github.com/kudo-render/kudo-render
IMAGE_REVISION ?= $(shell git rev-parse HEAD 2>/dev/null)
# Without .git (a release tarball): VERSION=v1.2.3 from the caller, else a
# folder named kudo-render-1.2.3 (GitHub's tarballs) gives v1.2.3, else dev.
IMAGE_VERSION  ?= $(if $(filter-out dev,$(VERSION)),$(VERSION),$(or $(patsubst kudo-render-%,v%,\
  $(filter $(foreach n,0 1 2 3 4 5 6 7 8 9,kudo-render-$(n)%),$(notdir $(CURDIR)))),dev))
# Every time in the image (file times, created): the last commit's, else 0.
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
IMAGE_LDFLAGS  := -s -w -X github.com/kudo-render/kudo-render/cmd.Version=$(IMAGE_VERSION)

.PHONY: image image-binaries image-push

## image-binaries: the static linux binaries of the image, bin/image-build/linux-ARCH/kudo-render
image-binaries:
	@set -e; for a in $(IMAGE_ARCHS); do \
	  echo "build linux/$$a $(IMAGE_VERSION)"; \
	  CGO_ENABLED=0 GOOS=linux GOARCH=$$a $(GO) build -trimpath -ldflags "$(IMAGE_LDFLAGS)" -o bin/image-build/linux-$$a/kudo-render . ; \
	done

## image: the image as an OCI image layout in IMAGE_DIR (bin/image), one manifest per IMAGE_ARCHS, stamped IMAGE_VERSION; prints its digest (also in IMAGE_DIR/digest)
image: image-binaries
	$(GO) run ./internal/image/build -out $(IMAGE_DIR) -version '$(IMAGE_VERSION)' -revision '$(IMAGE_REVISION)' \
	  -source '$(IMAGE_SOURCE)' -created '$(SOURCE_DATE_EPOCH)' -ca '$(IMAGE_CA)' \
	  $(foreach a,$(IMAGE_ARCHS),$(a)=bin/image-build/linux-$(a)/kudo-render)

## image-push: make image, then push it to each IMAGE (e.g. IMAGE=registry.example.com/team/kudo-render:v1.2.3); credentials from KUDO_RENDER_REGISTRY_USER/_PASSWORD or the docker config
image-push: image
	@if [ -z "$(IMAGE)" ]; then echo "make image-push IMAGE=registry.example.com/team/kudo-render:TAG" >&2; exit 1; fi
	$(GO) run ./internal/image/build -push -out $(IMAGE_DIR) $(IMAGE)
