# sunset's container image (make image). Built on Debian bookworm as its Debian package (the
# debian/ of make deb), run on bookworm-slim with that package installed by apt: the runtime
# libraries it depends on, and git. Entry point sunset, as the unprivileged user sunset; the
# repository to check is mounted at /src (pre-commit's docker_image hook mounts it there):
#   make image                                   # tags sunset:VERSION and sunset:latest
#   docker run --rm -v "$PWD:/src" sunset:VERSION check --staged
#   docker run --rm -v "$PWD:/src" sunset:VERSION scan .
ARG DEBIAN_RELEASE=bookworm

FROM debian:${DEBIAN_RELEASE} AS build
RUN apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        build-essential ca-certificates debhelper dpkg-dev git libcjson-dev libclang-dev \
        libcmocka-dev libgit2-dev libpcre2-dev libtree-sitter-dev pkg-config && \
    rm -rf /var/lib/apt/lists/*
WORKDIR /build/sunset
COPY . .
# The grammar: vendor/ in a source tarball, else build/grammar/ (make image fetches it there
# and .dockerignore lets it in), else npm, in this stage only.
RUN tgz=$(awk '{print $2}' scripts/tree-sitter-python.sha256) && mkdir -p vendor && \
    if [ ! -f "vendor/$tgz" ]; then \
        if [ -f "build/grammar/$tgz" ]; then cp "build/grammar/$tgz" vendor/; else \
            apt-get update -qq && \
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm && \
            (cd vendor && npm pack --silent "$(echo "$tgz" | sed 's/-\([0-9][0-9.]*\)\.tgz$/@\1/')"); \
        fi; \
    fi && rm -rf build
# The suite runs in CI and in make deb; DEB_BUILD_OPTIONS= runs it here too.
ARG DEB_BUILD_OPTIONS=nocheck
RUN DEB_BUILD_OPTIONS="$DEB_BUILD_OPTIONS" dpkg-buildpackage -b -us -uc && \
    mkdir /out && mv ../sunset_*.deb /out/

FROM debian:${DEBIAN_RELEASE}-slim
ARG VERSION=
ARG REVISION=
ARG SOURCE=
LABEL org.opencontainers.image.title="sunset" \
      org.opencontainers.image.description="Audits a PaddlePaddle tree for remnants of the legacy executors; the pull-request and pre-commit gate" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.base.name="docker.io/library/debian:bookworm-slim"
COPY --from=build /out/ /tmp/pkg/
# safe.directory: the mounted repository belongs to the host's user, and git and libgit2
# refuse a work tree of another owner unless it is marked safe
RUN apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        /tmp/pkg/sunset_*.deb git && \
    rm -rf /var/lib/apt/lists/* /tmp/pkg && \
    useradd --system --uid 10001 --user-group --create-home --home-dir /home/sunset sunset && \
    git config --system --add safe.directory '*'
USER sunset
WORKDIR /src
ENTRYPOINT ["sunset"]
CMD ["--help"]
