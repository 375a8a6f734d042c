#!/usr/bin/env bash
# Times `linesift warc` (--jobs 1 and 2) against a Python loop of FastWARC +
# resiliparse extract_plain_text(main_content=True) on a gzip and a zstd
# WARC built from the development corpus (../shared/corpus). Everything it
# makes stays under target/bench-warc and is never committed.
# usage: scripts/bench-warc.sh [PAGES]   (default: all corpus pages)
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-0}
target=${CARGO_TARGET_DIR:-target}
out=target/bench-warc
mkdir -p "$out"
[ -f target/corpus/manifest.tsv ] || ../shared/corpus/unpack.sh target/corpus
if ! .venv/bin/python -c "import warcio, fastwarc, resiliparse, zstandard" >/dev/null 2>&1; then
  python3 -m venv .venv
  .venv/bin/pip install -q -U pip
  .venv/bin/pip install -q warcio fastwarc resiliparse zstandard
fi
cargo build --release --quiet
.venv/bin/python scripts/bench_warc.py --manifest target/corpus/manifest.tsv \
  --pages "$pages" --out "$out" --linesift "$target/release/linesift"
