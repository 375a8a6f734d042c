# syntax=docker/dockerfile:1
# linesift: build once with the release profile (LTO), run as a non-root user.
#   docker build -t linesift:local -t linesift:0.1.0 --build-arg LINESIFT_GIT_REV=$(git rev-parse --short=12 HEAD) .
#   (linesift:local is the compose stack's image, linesift:0.1.0, Cargo.toml's
#   version, the one deploy/k8s runs: push that to your registry)
#   (add --build-arg PGO=1 for the profile-guided build: see below)

# The toolchain of Cargo.toml's rust-version, pinned (a floating rust:1 would
# build with whatever stable is newest that day); tests/deploy_config.rs
# checks that the two agree.
FROM rust:1.95-bookworm AS build
WORKDIR /src
# .git is not in the build context (.dockerignore); build.rs falls back to
# this value for the revision in `linesift --version` when it reads it.
ARG LINESIFT_GIT_REV=unknown
ENV LINESIFT_GIT_REV=${LINESIFT_GIT_REV}
# --build-arg PGO=1: the profile-guided build (scripts/build-pgo.sh), about
# 10 % faster extraction for about three times the build time. It trains on
# pages the repository makes itself and needs llvm-profdata of rustc's own
# LLVM (rustup's llvm-tools) and python3.
ARG PGO=0
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    if [ "$PGO" = 1 ]; then \
      rustup component add llvm-tools \
      && { command -v python3 >/dev/null \
           || { apt-get update && apt-get install -y --no-install-recommends python3; }; } \
      && scripts/build-pgo.sh \
      && install -m 0755 target/pgo/use/release/linesift /usr/local/bin/linesift; \
    else \
      cargo build --release --locked \
      && install -m 0755 target/release/linesift /usr/local/bin/linesift; \
    fi

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 linesift \
 && useradd --system --uid 10001 --gid linesift --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin linesift
COPY --from=build /usr/local/bin/linesift /usr/local/bin/linesift
# Numeric, so Kubernetes' runAsNonRoot can check it without a passwd lookup.
USER 10001:10001
# /metrics, /healthz, /readyz
EXPOSE 9898
ENTRYPOINT ["linesift"]
CMD ["worker"]
