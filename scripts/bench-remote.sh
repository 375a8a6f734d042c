#!/usr/bin/env bash
# Times linesift reading a WARC over loopback HTTP against the same file
# read locally: a whole file, and every record through a CDXJ index (a
# ranged request a record). The WARC is built from the development corpus
# (../shared/corpus) with warcio and served by scripts/bench_remote.py's
# Range-capable origin. Everything it makes stays under target/bench-remote.
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
.venv/bin/python -c "import warcio" 2>/dev/null || {
  echo "bench-remote: .venv lacks warcio; run scripts/test.sh --setup-only" >&2
  exit 1
}
if [ -n "${LINESIFT:-}" ]; then
  bin=$LINESIFT
else
  cargo build --release --quiet
  bin=$target/release/linesift
fi
.venv/bin/python scripts/bench_remote.py --manifest target/corpus/manifest.tsv \
  --pages "$pages" --out "$out" --linesift "$bin"
