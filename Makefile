# kudo-render: make demo renders the bundled example, make test runs the suite.
export GOTOOLCHAIN := local
GO       ?= go
BIN      := bin/kudo-render
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X github.com/kudo-render/kudo-render/cmd.Version=$(VERSION)
# A count of executions, not a duration: go1.26's fuzz coordinator can fail a
# duration run with "context deadline exceeded" at its end (golang/go#75804).
FUZZTIME ?= 2000x

# Packages that run work on several goroutines: make test runs their tests
# under the race detector too.
RACE_PKGS := ./cmd/... ./internal/render/tmpl/... ./internal/engine/... ./internal/yaml/object/... ./internal/kube/... ./internal/yaml/par/... ./fn/... ./config/... ./internal/output/... ./internal/postprocess/digest/... ./internal/postprocess/enhance/... ./internal/postprocess/refs/...

.PHONY: all build demo test unit race vet fuzz bench bench-compare clean kube-assets differential

all: build

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(BIN) .

## demo: build and render the KEP-0009 MySQL example framework
demo: build
	$(BIN) render examples/mysql/render.yaml

## test: installs the clients the tests use when missing (.ci/tools.sh: kpt, kustomize, git, gcc, Graphviz; else an error naming them), then vet, every test (none skips for a missing client), the concurrent packages' tests under the race detector, and a short run of every fuzz target
test: export KUDO_RENDER_REQUIRE_TOOLS := 1
test: vet unit race fuzz

vet:
	$(GO) vet ./...
	@out=$$($$($(GO) env GOROOT)/bin/gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt -w needed on:"; echo "$$out"; exit 1; fi

unit: kube-assets
	@m=""; if [ "$$KUDO_RENDER_REQUIRE_TOOLS" = 1 ]; then m=$$(.ci/tools.sh) || exit 1; fi; \
	set -x; KUDO_RENDER_MERMAID=$${KUDO_RENDER_MERMAID:-$$m} KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$$(internal/test/kubetest/install.sh)} $(GO) test -count=1 ./...

## kube-assets: kube-apiserver, kube-controller-manager (garbage collection) and etcd for the API server tests (internal/test/kubetest), unless KUBEBUILDER_ASSETS names them: built once into ~/.cache/kudo-render/kube (10 to 20 minutes), then found at once
kube-assets:
	@if [ -z "$$KUBEBUILDER_ASSETS" ]; then internal/test/kubetest/install.sh >/dev/null; fi

## differential: the differential test against the real API server with every case (make test judges a sample; docs/validation.md); another sample: make differential FLAGS='-cases 20000 -seed 7'
differential: kube-assets
	KUBEBUILDER_ASSETS=$${KUBEBUILDER_ASSETS:-$$(internal/test/kubetest/install.sh)} $(GO) test -count=1 -timeout 60m -v -run '^TestDifferential$$' ./internal/test/differential -args $(or $(FLAGS),-cases 0 -service-rounds 20 -reduce 50)

race:
	CGO_ENABLED=1 $(GO) test -count=1 -race $(RACE_PKGS)

## fuzz: run each fuzz target for FUZZTIME executions (longer: make fuzz FUZZTIME=1000000x, or a duration: FUZZTIME=5m)
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz $$pkg $$t"; \
	    log=$$(mktemp); \
	    if ! $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg > $$log 2>&1; then \
	      grep -v '^fuzz: elapsed' $$log | tail -40; rm -f $$log; exit 1; \
	    fi; rm -f $$log; \
	  done; \
	done

## bench: loading and rendering benchmarks
bench:
	$(GO) test -run='^$$' -bench=. -benchmem ./...

## bench-compare: kudo-render side by side with helm, whole processes (docs/performance.md); installs helm when missing
bench-compare: build
	$(GO) run ./internal/test/benchcompare -bin $(BIN) -corpus $${KUDO_RENDER_CORPUS:-../shared/corpus} -out bench-out

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
