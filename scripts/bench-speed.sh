#!/usr/bin/env bash
# Speed side by side: linesift (one thread, extraction only:
# examples/throughput.rs) and resiliparse (../shared/eval/peers.py, which
# times only the extraction call) on the same corpus pages, in one run;
# prints MB/s of each and the ratio. The bar: linesift ≥ 10× resiliparse.
#
# linesift is timed twice a round: `linesift`, every page read into memory
# first (the headline figure: by its turn a page is
# cold in memory), and `linesift-read`, each page read from its file just
# before its call, as peers.py reads (and decodes) each page just before
# starting its clock.
#
# usage: scripts/bench-speed.sh [--limit N] [--peer NAME]... [--pgo] [--full] [--rounds N]
#   --limit N   only the first N pages of the manifest (default: all)
#   --rounds N  N rounds, linesift and the peers in turn each round; prints
#               each round's ratio and their median (default: 1). The
#               Python side's speed drifts by more than a change could
#               show (docs/benchmarks.md): alternate and take the median.
#   --peer NAME another peers.py system to run too (e.g. trafilatura)
#   --pgo       time the profile-guided build too (scripts/build-pgo.sh
#               first; it is not rebuilt here)
#   --full      time the core with metadata and blocks on too
#               (`linesift-full`: `--metadata --blocks`)
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
full=
rounds=1
peers=(resiliparse)
while [ $# -gt 0 ]; do
  case $1 in
    --limit) limit=$2; shift 2 ;;
    --peer) peers+=("$2"); shift 2 ;;
    --pgo) pgo=$target/pgo/use/release/examples/throughput; shift ;;
    --rounds) rounds=$2; shift 2 ;;
    --full) full=1; shift ;;
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

if [ -n "$pgo" ]; then
  [ -x "$pgo" ] || { echo "no $pgo: run scripts/build-pgo.sh first" >&2; exit 1; }
fi
: > "$out/linesift.txt"
: > "$out/linesift-read.txt"
[ -n "$pgo" ] && : > "$out/linesift-pgo.txt"
[ -n "$full" ] && : > "$out/linesift-full.txt"
for peer in "${peers[@]}"; do : > "$out/$peer.txt"; done
for ((round = 1; round <= rounds; round++)); do
  [ "$rounds" -gt 1 ] && echo "== round $round of $rounds"
  "$target/release/examples/throughput" "$out/pages.txt" | tee -a "$out/linesift.txt"
  "$target/release/examples/throughput" "$out/pages.txt" --read-each | tee -a "$out/linesift-read.txt"
  if [ -n "$pgo" ]; then
    "$pgo" "$out/pages.txt" | tee -a "$out/linesift-pgo.txt"
  fi
  if [ -n "$full" ]; then
    "$target/release/examples/throughput" "$out/pages.txt" --metadata --blocks | tee -a "$out/linesift-full.txt"
  fi
  for peer in "${peers[@]}"; do
    "$python" "$shared/eval/peers.py" "$peer" "$corpus/manifest.tsv" "$out/$peer.jsonl" \
      "${limit_args[@]}" 2>&1 | tee -a "$out/$peer.txt"
  done
done

python3 - "$out" "${pgo:+pgo}" "${full:+full}" "${peers[@]}" <<'PY'
import re, sys, os, statistics
out, pgo, full, peers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def runs(name):
    """(pages/s, MB/s) of each round."""
    text = open(os.path.join(out, f"{name}.txt")).read()
    return [(float(p), float(m)) for p, m in re.findall(r"([\d.]+) pages/s, ([\d.]+) MB/s", text)]
mine = [("linesift", runs("linesift")), ("linesift-read", runs("linesift-read"))] + ([("linesift-pgo", runs("linesift-pgo"))] if pgo else []) + ([("linesift-full", runs("linesift-full"))] if full else [])
theirs = [(p, runs(p)) for p in peers]
rounds = min(len(r) for _, r in mine + theirs)
for k in range(rounds):
    if rounds > 1:
        print(f"round {k + 1}")
    print(f'{"system":<16}{"pages/s":>10}{"MB/s":>10}' + "".join(f'{n + " ×":>16}' for n, _ in mine))
    for name, r in mine:
        print(f'{name:<16}{r[k][0]:>10.1f}{r[k][1]:>10.2f}')
    for name, r in theirs:
        ratios = "".join(f'{m[k][1] / r[k][1]:>16.1f}' for _, m in mine)
        print(f'{name:<16}{r[k][0]:>10.1f}{r[k][1]:>10.2f}{ratios}')
if rounds > 1:
    print(f"median of {rounds} rounds (each round's ratio, in one run)")
    for name, r in theirs:
        ratios = "".join(
            f'{statistics.median(m[k][1] / r[k][1] for k in range(rounds)):>16.1f}' for _, m in mine
        )
        print(f'{name:<16}{statistics.median(x[1] for x in r[:rounds]):>10.2f} MB/s{ratios}')
PY
