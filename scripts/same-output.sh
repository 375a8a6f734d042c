#!/usr/bin/env bash
# Does a change keep extraction output the same? Runs `linesift extract`
# over every corpus page with two binaries and compares the JSONL records
# field by field, timings left out (they differ from run to run). Speed
# work must leave this silent; a quality change shows which pages moved.
# Fields the base binary does not write (a newer binary's added fields)
# are named once and not compared.
#
# usage: scripts/same-output.sh BASE_BINARY [NEW_BINARY] [-- extract options...]
#   NEW_BINARY defaults to target/release/linesift (built first).
# Exit code 0 when every record is equal, 1 otherwise (the differing pages
# and fields are listed, at most 20).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base=${1:?usage: same-output.sh BASE_BINARY [NEW_BINARY] [-- extract options...]}
shift
new=$here/target/release/linesift
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  new=$1
  shift
else
  cargo build --release --quiet --manifest-path "$here/Cargo.toml"
fi
[ "${1:-}" = "--" ] && shift
corpus=$here/target/corpus
[ -f "$corpus/manifest.tsv" ] || "$here/../shared/corpus/unpack.sh" "$corpus" >&2
out=$here/target/same-output
mkdir -p "$out"
tail -n +2 "$corpus/manifest.tsv" | cut -f3 | sed "s|^|$corpus/|" > "$out/inputs.txt"
"$base" extract --from "$out/inputs.txt" --format jsonl --jobs 2 "$@" > "$out/base.jsonl" || true
"$new" extract --from "$out/inputs.txt" --format jsonl --jobs 2 "$@" > "$out/new.jsonl" || true
python3 - "$out/base.jsonl" "$out/new.jsonl" <<'PY'
import json, sys

def load(path):
    records = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            r.pop("timings", None)
            records[r.get("path")] = r
    return records

base, new = load(sys.argv[1]), load(sys.argv[2])
base_keys = {k for r in base.values() for k in r}
added = sorted({k for r in new.values() for k in r} - base_keys)
if added:
    print(f"fields only the new binary writes (not compared): {', '.join(added)}")
    for r in new.values():
        for k in added:
            r.pop(k, None)
differ = sorted(p for p in base.keys() | new.keys() if base.get(p) != new.get(p))
for p in differ[:20]:
    a, b = base.get(p) or {}, new.get(p) or {}
    fields = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
    print(f"differs: {p}: {', '.join(fields)}")
print(f"{len(base)} pages, {len(differ)} differ")
sys.exit(1 if differ else 0)
PY
