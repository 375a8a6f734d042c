# syntax=docker/dockerfile:1
# linesift: build once with the release profile (LTO), run as a non-root user.
#   docker build -t linesift:local --build-arg LINESIFT_GIT_REV=$(git rev-parse --short=12 HEAD) .

FROM rust:1-bookworm AS build
WORKDIR /src
# .git is not in the build context (.dockerignore); build.rs falls back to
# this value for the revision in `linesift --version` when it reads it.
ARG LINESIFT_GIT_REV=unknown
ENV LINESIFT_GIT_REV=${LINESIFT_GIT_REV}
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked \
 && install -m 0755 target/release/linesift /usr/local/bin/linesift

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
