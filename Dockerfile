# kudo-render as a static binary in a distroless image, running as non-root.
# The entrypoint is the binary: `kudo-render render ...` from the CLI.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 GOTOOLCHAIN=local go build -trimpath \
      -ldflags "-s -w -X github.com/kudo-render/kudo-render/cmd.Version=${VERSION}" \
      -o /out/kudo-render .

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/kudo-render /usr/local/bin/kudo-render
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/kudo-render"]
