#!/usr/bin/env bash
# Scores linesift on all six development sets in one run: the five LCS sets of
# ../shared/corpus/manifest.tsv (score.py) and the trafeval-dev snippet set
# (snippets.py), printed as one table of P, R and F1 with the mean LCS F1.
# usage: scripts/six-sets.sh [OUT_DIR] [-- extract options...]
# OUT_DIR (default target/six-sets) keeps the predictions, per-page scores and
# a scores.json; BASELINE=an earlier scores.json prints each F1's change.
# PROFILE=quality builds faster than release with the same output;
# LINESIFT_BIN runs that binary instead of building. Unpacks the corpus on first use.
set -euo pipefail
here=${LINESIFT_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
shared=${LINESIFT_SHARED:-$here/../shared}
out=${1:-$here/target/six-sets}; shift || true
[ "${1:-}" = "--" ] && shift
corpus=$here/target/corpus
[ -f "$corpus/manifest.tsv" ] && [ -d "$corpus/trafeval-dev" ] || "$shared/corpus/unpack.sh" "$corpus" >&2
mkdir -p "$out"
profile=${PROFILE:-release}
[ -n "${LINESIFT_BIN:-}" ] || cargo build --profile "$profile" --quiet --manifest-path "$here/Cargo.toml"
bin=${LINESIFT_BIN:-$here/target/$profile/linesift}
{
  tail -n +2 "$corpus/manifest.tsv" | cut -f3 | sed "s|^|$corpus/|"
  find "$corpus/trafeval-dev/html" -type f | sort
} > "$out/inputs.txt"
# A page that fails to extract scores 0 (no line), as score.py and snippets.py say.
"$bin" extract --from "$out/inputs.txt" --format jsonl "$@" 2> "$out/extract.log" \
  | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    print(json.dumps({"path": r["path"], "text": r.get("text") or "", "headline": r.get("headline") or ""}))
' > "$out/predictions.jsonl" || true
python3 "$shared/eval/score.py" "$corpus/manifest.tsv" "$out/predictions.jsonl" \
  --json "$out/lcs.json" --per-page "$out/lcs-per-page.tsv" > "$out/lcs.txt"
python3 "$shared/eval/snippets.py" "$corpus/trafeval-dev/evaldata.json" "$corpus/trafeval-dev" \
  "$out/predictions.jsonl" --names linesift --json "$out/snippets.json" \
  --per-page "$out/snippets-per-page.tsv" > "$out/snippets.txt"
python3 "$here/scripts/six_sets.py" "$out/lcs.json" "$out/snippets.json" "$out/scores.json" ${BASELINE:+"$BASELINE"}
