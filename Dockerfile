# kudo-render with Docker, for those who have a daemon. The released image
# is built without one and without any base image: `make image` (an OCI
# layout, internal/image), `make image-push IMAGE=...`, docs/image.md. This
# file makes the same file system: the static binary on PATH, /etc/passwd
# and /etc/group with nonroot (65532) and argocd (999), the CA bundle, a
# /tmp and home folders; no shell, no libc. The final stage is scratch, so
# the only image pulled is the compiler's: pin it by digest for a release,
#   docker build --build-arg GO_IMAGE=golang:1.26-bookworm@sha256:<digest> .
# (the digest: `crane digest golang:1.26-bookworm`).
ARG GO_IMAGE=golang:1.26-bookworm
FROM ${GO_IMAGE} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# VERSION: the version stamp (cmd.Version), needed here: .git is not copied.
ARG VERSION=dev
RUN CGO_ENABLED=0 GOTOOLCHAIN=local go build -trimpath \
      -ldflags "-s -w -X github.com/kudo-render/kudo-render/cmd.Version=${VERSION}" \
      -o /rootfs/usr/local/bin/kudo-render . \
 && mkdir -p /rootfs/etc/ssl/certs /rootfs/tmp /rootfs/home/nonroot /rootfs/home/argocd /rootfs/root \
 && cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
 && printf 'root:x:0:0:root:/root:/sbin/nologin\nargocd:x:999:999:argocd:/home/argocd:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > /rootfs/etc/passwd \
 && printf 'root:x:0:\nargocd:x:999:\nnonroot:x:65532:\n' > /rootfs/etc/group \
 && chmod 1777 /rootfs/tmp && chmod 700 /rootfs/root \
 && chown 65532:65532 /rootfs/home/nonroot && chown 999:999 /rootfs/home/argocd

FROM scratch
COPY --from=build /rootfs/ /
COPY --from=build --chown=65532:65532 /rootfs/home/nonroot /home/nonroot
COPY --from=build --chown=999:999 /rootfs/home/argocd /home/argocd
ARG VERSION=dev
LABEL org.opencontainers.image.title=kudo-render \
      org.opencontainers.image.source=https://github.com/kudo-render/kudo-render \
      org.opencontainers.image.version=${VERSION}
ENV PATH=/usr/local/bin:/usr/bin:/bin HOME=/home/nonroot SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
WORKDIR /home/nonroot
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/kudo-render"]
