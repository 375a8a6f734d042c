#!/usr/bin/env bash
# The test command: sets up what the tests need on first use, then runs
# every test with cargo-nextest.
#
#   scripts/test.sh [NEXTEST ARGS...]   e.g. scripts/test.sh --test core_format
#   scripts/test.sh --setup-only        set up, run no test (.ci/run uses it)
#
# Set up when missing: the .venv with warcio and FastWARC (they read our
# WARC output back; python3-venv from apt if need be) and moto's S3 server
# (remote WARCs on s3://), a RabbitMQ broker on
# 127.0.0.1:5672 (installed and started), and through apt: chromium (report
# screenshots), prometheus (promtool and the scrape test) and docker-compose
# (compose validation). LINESIFT_TEST_NO_APT=1 installs no system package.
# A check that could not be set up skips or fails; either way it is named on
# one `skipped:` line after the test runner's summary, with the count of
# ignored tests, so that no skip passes silently. The exit code is nextest's.
set -uo pipefail
cd "$(dirname "$0")/.."

missing=()
apt_updated=0

say() { echo "test.sh: $*" >&2; }

have() { command -v "$1" >/dev/null 2>&1; }

# Installs Debian packages as root or through passwordless sudo; fails quietly
# otherwise (the caller names what is missing).
apt_install() {
  [ "${LINESIFT_TEST_NO_APT:-0}" = 1 ] && return 1
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    sudo -n true 2>/dev/null || return 1
    sudo=(sudo -n)
  fi
  have apt-get || return 1
  say "installing $* (apt)"
  if [ "$apt_updated" = 0 ]; then
    "${sudo[@]}" apt-get update -qq >/dev/null 2>&1 || return 1
    apt_updated=1
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1
}

setup_venv() {
  .venv/bin/python -c "import warcio, fastwarc" >/dev/null 2>&1 && return
  # Debian's python3 makes no venv without python3-venv.
  if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
    apt_install python3 python3-venv || true
  fi
  say "creating .venv with warcio and fastwarc"
  python3 -m venv .venv >/dev/null 2>&1 &&
    .venv/bin/pip install -q -U pip >/dev/null 2>&1 &&
    .venv/bin/pip install -q warcio fastwarc >/dev/null 2>&1
  .venv/bin/python -c "import warcio, fastwarc" >/dev/null 2>&1 ||
    missing+=("WARC read-back tests (no .venv with warcio and fastwarc: python3 -m venv .venv && .venv/bin/pip install warcio fastwarc)")
}

# moto's S3 server (tests/warc_s3.rs); without it those tests fail, and
# this names why.
setup_moto() {
  [ -x .venv/bin/moto_server ] && return
  if [ -x .venv/bin/pip ]; then
    say "installing moto[server] into .venv"
    .venv/bin/pip install -q 'moto[server]' >/dev/null 2>&1
  fi
  [ -x .venv/bin/moto_server ] ||
    missing+=("S3 tests fail (no moto_server in .venv: .venv/bin/pip install 'moto[server]')")
}

setup_rabbitmq() {
  rabbitmqctl status >/dev/null 2>&1 && return
  have rabbitmq-server || apt_install rabbitmq-server || true
  if have rabbitmq-server; then
    say "starting rabbitmq-server"
    rabbitmq-server -detached >/dev/null 2>&1 || true
    for _ in $(seq 1 60); do
      rabbitmqctl status >/dev/null 2>&1 && break
      sleep 2
    done
  fi
  rabbitmqctl await_startup >/dev/null 2>&1 ||
    missing+=("broker tests (no RabbitMQ on 127.0.0.1:5672: rabbitmq-server -detached)")
}

setup_tools() {
  have chromium || apt_install chromium || true
  have chromium || missing+=("report screenshot checks (no chromium)")

  { have promtool && have prometheus; } || apt_install prometheus || true
  have promtool || missing+=("Prometheus rule checks (no promtool)")
  have prometheus || missing+=("Prometheus scrape test (no prometheus)")

  if ! docker compose version >/dev/null 2>&1 && ! have docker-compose; then
    apt_install docker-compose || true
  fi
  docker compose version >/dev/null 2>&1 || have docker-compose ||
    missing+=("compose validation (no docker-compose)")

  # Not installed here: Debian's kubernetes-client is too old for the manifests.
  have kubectl || missing+=("kustomize checks (no kubectl)")
  [ -f ../shared/eval/score.py ] ||
    missing+=("score.py agreement (no ../shared/eval/score.py)")
}

# Names what could not be set up, on one line.
report_missing() {
  [ "${#missing[@]}" -eq 0 ] && return
  local line="${missing[0]}" item
  for item in "${missing[@]:1}"; do line+="; $item"; done
  echo "skipped: $line" >&2
}

setup_venv
setup_moto
setup_rabbitmq
setup_tools

if [ "${1:-}" = --setup-only ]; then
  report_missing
  exit 0
fi

cargo nextest run --locked --no-fail-fast "$@"
status=$?
# Ignored tests are known gaps or heavy checks, each ignored with its
# reason: counted on the same line so that they do not read as passes.
if [ "$#" -eq 0 ]; then
  ignored=$(cargo nextest list --locked --run-ignored only --message-format oneline 2>/dev/null | grep -c .)
  [ "${ignored:-0}" -gt 0 ] &&
    missing+=("$ignored ignored tests, each with its reason (cargo nextest list --run-ignored only)")
fi
report_missing
exit "$status"
