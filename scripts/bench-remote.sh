#!/usr/bin/env bash
# Times linesift reading a WARC over loopback HTTP against the same file
# read locally: a whole file, and every record through a CDXJ index (a
# ranged request a record). The WARC is built from the development corpus
# (../shared/corpus) as scripts/bench-warc.sh builds it, and served by
# scripts/bench_remote.py's Range-capable origin. Everything it makes stays
# under target/bench-remote.
# LINESIFT=/path/to/linesift times that binary instead of building this tree.
#
# usage: [LINESIFT=...] scripts/bench-remote.sh [PAGES]   (default: all corpus pages)
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-0}
target=${CARGO_TARGET_DIR:-target}
out=target/bench-remote
mkdir -p "$out"
[ -f target/corpus/manifest.tsv ] || ../shared/corpus/unpack.sh target/corpus
# warcio builds the WARC; bench_warc.py, whose WARC this is, also writes a
# zstd one (zstandard).
.venv/bin/python -c "import warcio, zstandard" 2>/dev/null || {
  [ -x .venv/bin/python ] || python3 -m venv .venv
  echo "bench-remote: installing into .venv: warcio zstandard" >&2
  .venv/bin/pip install -q warcio zstandard
}
if [ -n "${LINESIFT:-}" ]; then
  bin=$LINESIFT
else
  cargo build --release --quiet
  bin=$target/release/linesift
fi
.venv/bin/python scripts/bench_remote.py --manifest target/corpus/manifest.tsv \
  --pages "$pages" --out "$out" --linesift "$bin"
