#!/usr/bin/env bash
# Scores linesift on the development corpus with ../shared/eval/score.py.
# usage: scripts/corpus-eval.sh [OUT_DIR] [-- extract options...]
# Unpacks the corpus to target/corpus on first use. Prints score.py's table.
set -euo pipefail
here=${LINESIFT_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
shared=${LINESIFT_SHARED:-$here/../shared}
out=${1:-$here/target/eval}; shift || true
[ "${1:-}" = "--" ] && shift
corpus=$here/target/corpus
[ -f "$corpus/manifest.tsv" ] || "$shared/corpus/unpack.sh" "$corpus" >&2
mkdir -p "$out"
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
tail -n +2 "$corpus/manifest.tsv" | cut -f3 | sed "s|^|$corpus/|" > "$out/inputs.txt"
"$here/target/release/linesift" extract --from "$out/inputs.txt" --format jsonl "$@" \
  | python3 -c '
import json, sys, os
root = sys.argv[1]
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"path": r["path"], "text": r.get("text", ""), "headline": r.get("headline") or ""}))
' "$corpus" > "$out/predictions.jsonl" || true
python3 "$shared/eval/score.py" "$corpus/manifest.tsv" "$out/predictions.jsonl" --json "$out/scores.json" --per-page "$out/per-page.tsv"
