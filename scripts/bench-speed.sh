#!/usr/bin/env bash
# Speed side by side: linesift (one thread, extraction only, pages read into
# memory first: examples/throughput.rs) and resiliparse (../shared/eval/peers.py,
# which times only the extraction call) on the same corpus pages, in one
# run; prints MB/s of each and the ratio. The bar: linesift ≥ 10× resiliparse.
#
# usage: scripts/bench-speed.sh [--limit N] [--peer NAME]... [--pgo]
#   --limit N   only the first N pages of the manifest (default: all)
#   --peer NAME another peers.py system to run too (e.g. trafilatura)
#   --pgo       time the profile-guided build too (scripts/build-pgo.sh
#               first; it is not rebuilt here)
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
pgo=
peers=(resiliparse)
while [ $# -gt 0 ]; do
  case $1 in
    --limit) limit=$2; shift 2 ;;
    --peer) peers+=("$2"); shift 2 ;;
    --pgo) pgo=$target/pgo/use/release/examples/throughput; shift ;;
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
if [ -n "$pgo" ]; then
  [ -x "$pgo" ] || { echo "no $pgo: run scripts/build-pgo.sh first" >&2; exit 1; }
  "$pgo" "$out/pages.txt" | tee "$out/linesift-pgo.txt"
fi
for peer in "${peers[@]}"; do
  "$python" "$shared/eval/peers.py" "$peer" "$corpus/manifest.tsv" "$out/$peer.jsonl" \
    "${limit_args[@]}" 2>&1 | tee "$out/$peer.txt"
done

python3 - "$out" "${pgo:+pgo}" "${peers[@]}" <<'PY'
import re, sys, os
out, pgo, peers = sys.argv[1], sys.argv[2], sys.argv[3:]
def mbs(name):
    text = open(os.path.join(out, f"{name}.txt")).read()
    m = re.findall(r"([\d.]+) pages/s, ([\d.]+) MB/s", text)
    return (float(m[-1][0]), float(m[-1][1])) if m else (float("nan"), float("nan"))
ours = mbs("linesift")
mine = [("linesift", ours)] + ([("linesift-pgo", mbs("linesift-pgo"))] if pgo else [])
print(f'{"system":<16}{"pages/s":>10}{"MB/s":>10}' + "".join(f'{n + " ×":>16}' for n, _ in mine))
for name, m in mine:
    print(f'{name:<16}{m[0]:>10.1f}{m[1]:>10.2f}')
for p in peers:
    theirs = mbs(p)
    ratios = "".join(f'{m[1] / theirs[1]:>16.1f}' for _, m in mine)
    print(f'{p:<16}{theirs[0]:>10.1f}{theirs[1]:>10.2f}{ratios}')
PY
