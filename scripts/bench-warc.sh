#!/usr/bin/env bash
# Times `linesift warc` (--jobs 1 and 2) against a Python loop of FastWARC +
# resiliparse extract_plain_text(main_content=True) on a gzip and a zstd
# WARC built from the development corpus (../shared/corpus). Everything it
# makes stays under target/bench-warc and is never committed.
#
# Python side: warcio (builds the WARCs), fastwarc, resiliparse, and
# zstandard (FastWARC has no zstd of its own: the zstd WARC is decompressed
# through zstandard). Without PYTHON they are installed into .venv when
# missing; with PYTHON=/path/to/python that interpreter must have them.
# LINESIFT=/path/to/linesift times that binary instead of building this tree
# (to compare against an older build).
#
# usage: [PYTHON=...] [LINESIFT=...] scripts/bench-warc.sh [PAGES]   (default: all corpus pages)
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-0}
target=${CARGO_TARGET_DIR:-target}
out=target/bench-warc
mkdir -p "$out"
[ -f target/corpus/manifest.tsv ] || ../shared/corpus/unpack.sh target/corpus
py=${PYTHON:-.venv/bin/python}
need="warcio fastwarc resiliparse zstandard"
# shellcheck disable=SC2086
missing=$("$py" -c 'import importlib.util, sys
print(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))' $need 2>/dev/null) || missing=$need
if [ -n "$missing" ]; then
  if [ -n "${PYTHON:-}" ]; then
    echo "bench-warc: $py lacks: $missing (zstandard is needed for the zstd WARC); run: $py -m pip install $missing" >&2
    exit 1
  fi
  echo "bench-warc: installing into .venv: $missing (zstandard is needed for the zstd WARC)" >&2
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install -q -U pip
  # shellcheck disable=SC2086
  .venv/bin/pip install -q $missing
fi
if [ -n "${LINESIFT:-}" ]; then
  bin=$LINESIFT
else
  cargo build --release --quiet
  bin=$target/release/linesift
fi
"$py" scripts/bench_warc.py --manifest target/corpus/manifest.tsv \
  --pages "$pages" --out "$out" --linesift "$bin"
