#!/usr/bin/env bash
# Format independence over the dev corpus: every page is extracted as it is,
# minified onto one physical line, and with a newline before every `<`; the
# three versions are scored on the six development sets (score.py for the five
# LCS sets, snippets.py for trafeval-dev) and each set's F1 and its change
# are printed. The bar: no set moves by more than 0.001.
#
# usage: scripts/format-independence.sh [-- extract options...]
#
# "Minified": every whitespace run that holds a line break becomes one space,
# so the page is one physical line and renders the same (outside <pre>).
# "Broken": a newline is inserted before every `<`.
# The variants are written under target/format/ (never commit them).
# LINESIFT_BIN runs that binary instead of building a release one.
set -euo pipefail
here=${LINESIFT_ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
shared=${LINESIFT_SHARED:-$here/../shared}
target=${CARGO_TARGET_DIR:-$here/target}
[ "${1:-}" = "--" ] && shift
corpus=$here/target/corpus
out=$here/target/format
[ -f "$corpus/manifest.tsv" ] && [ -d "$corpus/trafeval-dev" ] || "$shared/corpus/unpack.sh" "$corpus" >&2
[ -n "${LINESIFT_BIN:-}" ] || cargo build --release --quiet --bin linesift --manifest-path "$here/Cargo.toml"
bin=${LINESIFT_BIN:-$target/release/linesift}
mkdir -p "$out"

python3 - "$corpus" "$out" <<'PY'
import os, re, sys
corpus, out = sys.argv[1], sys.argv[2]
newline_run = re.compile(rb"[ \t\f]*[\r\n][ \t\r\n\f]*")
lists = {name: open(os.path.join(out, f"{name}.txt"), "w") for name in ("original", "minified", "broken")}
def pages():
    """The manifest's pages, then the snippet set's."""
    with open(os.path.join(corpus, "manifest.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            yield dict(zip(header, line.rstrip("\n").split("\t")))["html"]
    snippets = os.path.join(corpus, "trafeval-dev", "html")
    for name in sorted(os.listdir(snippets)):
        yield os.path.join("trafeval-dev", "html", name)

for rel in pages():
    src = os.path.join(corpus, rel)
    data = open(src, "rb").read()
    lists["original"].write(src + "\n")
    for name, variant in (("minified", newline_run.sub(b" ", data)),
                          ("broken", data.replace(b"<", b"\n<"))):
        dst = os.path.join(out, name, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "wb") as g:
            g.write(variant)
        lists[name].write(dst + "\n")
for l in lists.values():
    l.close()
PY

for set in original minified broken; do
  "$bin" extract --from "$out/$set.txt" --format jsonl "$@" 2>"$out/$set.err" \
    | python3 -c '
import json, sys
prefix, corpus = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    r = json.loads(line)
    path = r["path"]
    if path.startswith(prefix):
        path = corpus + path[len(prefix):]
    print(json.dumps({"path": path, "text": r.get("text", ""), "headline": r.get("headline") or ""}))
' "$out/$set/" "$corpus/" > "$out/$set.jsonl" || true
  python3 "$shared/eval/score.py" "$corpus/manifest.tsv" "$out/$set.jsonl" \
    --json "$out/$set.scores.json" > "$out/$set.table.txt"
  python3 "$shared/eval/snippets.py" "$corpus/trafeval-dev/evaldata.json" "$corpus/trafeval-dev" \
    "$out/$set.jsonl" --names linesift --json "$out/$set.snippets.json" > /dev/null
done

python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
scores = {s: json.load(open(os.path.join(out, f"{s}.scores.json"))) for s in ("original", "minified", "broken")}
for s in scores:
    scores[s]["trafeval-dev"] = json.load(open(os.path.join(out, f"{s}.snippets.json")))["linesift"]
texts = {}
for s in scores:
    texts[s] = {}
    for line in open(os.path.join(out, f"{s}.jsonl"), encoding="utf-8"):
        r = json.loads(line)
        texts[s][r["path"]] = r["text"]
datasets = [d for d in scores["original"] if not d.startswith("_")]
datasets = [d for d in datasets if d != "trafeval-dev"] + ["trafeval-dev"]
print(f'{"dataset":<20}{"original":>10}{"minified":>10}{"Δ":>8}{"broken":>10}{"Δ":>8}')
for d in datasets + ["_mean_over_datasets"]:
    o, m, b = (scores[s].get(d, {}).get("f1", float("nan")) for s in ("original", "minified", "broken"))
    name = "mean" if d.startswith("_") else d
    print(f"{name:<20}{o:>10.4f}{m:>10.4f}{m - o:>+8.4f}{b:>10.4f}{b - o:>+8.4f}")
n = len(texts["original"])
for s in ("minified", "broken"):
    same = sum(1 for p, t in texts["original"].items() if texts[s].get(p) == t)
    print(f"{s}: identical text on {same} of {n} pages")
worst = max(abs(scores[s][d]["f1"] - scores["original"][d]["f1"])
            for s in ("minified", "broken") for d in datasets)
print(f"largest change of a set's F1 {worst:.4f} ({'within' if worst <= 0.001 else 'OVER'} the 0.001 bar)")
PY
