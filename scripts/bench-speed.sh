#!/usr/bin/env bash
# Speed side by side: linesift (one thread, extraction only, pages read into
# memory first: examples/throughput.rs) and resiliparse (../shared/eval/peers.py,
# which times only the extraction call) on the same corpus pages, in one
# run; prints MB/s of each and the ratio. The bar: linesift ≥ 10× resiliparse.
#
# usage: scripts/bench-speed.sh [--limit N] [--peer NAME]...
#   --limit N   only the first N pages of the manifest (default: all)
#   --peer NAME another peers.py system to run too (e.g. trafilatura)
#
# Needs the peers in .venv: python3 -m venv .venv && .venv/bin/pip install -U pip &&
#   .venv/bin/pip install -r ../shared/eval/requirements-peers.txt
# (resiliparse at least). The machine is noisy: compare the ratio, not the
# absolute figures. linesift's time includes charset detection and
# decoding; peers.py decodes before it starts its clock.
set -euo pipefail
here=${LINESIFT_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
shared=${LINESIFT_SHARED:-$here/../shared}
target=${CARGO_TARGET_DIR:-$here/target}
python=${PYTHON:-$here/.venv/bin/python}
limit=
peers=(resiliparse)
while [ $# -gt 0 ]; do
  case $1 in
    --limit) limit=$2; shift 2 ;;
    --peer) peers+=("$2"); shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
corpus=$here/target/corpus
out=$here/target/speed
[ -f "$corpus/manifest.tsv" ] || "$shared/corpus/unpack.sh" "$corpus" >&2
mkdir -p "$out"
cargo build --release --quiet --example throughput --manifest-path "$here/Cargo.toml"

# The same pages, in the same order, as peers.py reads them.
# (awk, not head: under pipefail, head's early exit would fail the pipeline)
awk -F'\t' -v root="$corpus" -v lim="${limit:-0}" \
  'NR > 1 && (lim == 0 || NR - 1 <= lim) { print root "/" $3 }' \
  "$corpus/manifest.tsv" > "$out/pages.txt"
limit_args=()
[ -n "$limit" ] && limit_args=(--limit "$limit")

"$target/release/examples/throughput" "$out/pages.txt" | tee "$out/linesift.txt"
for peer in "${peers[@]}"; do
  "$python" "$shared/eval/peers.py" "$peer" "$corpus/manifest.tsv" "$out/$peer.jsonl" \
    "${limit_args[@]}" 2>&1 | tee "$out/$peer.txt"
done

python3 - "$out" "${peers[@]}" <<'PY'
import re, sys, os
out, peers = sys.argv[1], sys.argv[2:]
def mbs(name):
    text = open(os.path.join(out, f"{name}.txt")).read()
    m = re.findall(r"([\d.]+) pages/s, ([\d.]+) MB/s", text)
    return (float(m[-1][0]), float(m[-1][1])) if m else (float("nan"), float("nan"))
ours = mbs("linesift")
print(f'{"system":<16}{"pages/s":>10}{"MB/s":>10}{"linesift ×":>12}')
print(f'{"linesift":<16}{ours[0]:>10.1f}{ours[1]:>10.2f}{"":>12}')
for p in peers:
    theirs = mbs(p)
    print(f'{p:<16}{theirs[0]:>10.1f}{theirs[1]:>10.2f}{ours[1] / theirs[1]:>12.1f}')
PY
