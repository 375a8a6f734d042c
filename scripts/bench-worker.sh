#!/usr/bin/env bash
# Documents per second end to end through RabbitMQ (`linesift enqueue` ->
# 2 `linesift worker` processes -> a consumer of the results exchange,
# examples/worker_sink.rs) against `linesift warc` on the same WARC files
# in-process, and the queue's cost in percent, per kind of task:
#   records  record tasks as `linesift enqueue --kind warc-records` makes
#            them: batches of consecutive records of one file (--batch,
#            default 64; BATCH=N to try another)
#   files    one task per WARC file (`--kind warc-files`)
#   single   one task per record (`--batch 1`), for comparison
# The bar (<= 20 %) is for `records` and `files`. ROUNDS rounds (default
# 3), each timing the in-process baseline and then every kind; the median
# cost per kind is reported, with the spread of the rounds, since the
# machine may be shared. The WARC files (FILES of them, default 16) are
# built from the development corpus (../shared/corpus) under
# target/bench-worker and never committed. Needs RabbitMQ on AMQP_URL.
# usage: scripts/bench-worker.sh [PAGES]   (default: all corpus pages)
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-0}
rounds=${ROUNDS:-3}
files=${FILES:-16}
batch=${BATCH:-}
target=${CARGO_TARGET_DIR:-target}
amqp=${AMQP_URL:-amqp://guest:guest@127.0.0.1:5672/%2f}
out=target/bench-worker
mkdir -p "$out"
[ -f target/corpus/manifest.tsv ] || ../shared/corpus/unpack.sh target/corpus
if ! .venv/bin/python -c "import warcio" >/dev/null 2>&1; then
  python3 -m venv .venv
  .venv/bin/pip install -q warcio
fi
cargo build --release --quiet --bin linesift --example worker_sink
bin=$target/release/linesift
sink=$target/release/examples/worker_sink

# FILES plain WARC files of the corpus pages, the pages dealt out in
# turn; one `path offset length` line per response record (a file's
# records together, in order) and one path per file.
dir=$(realpath "$out")
rm -f "$dir"/bench-*.warc
.venv/bin/python - "$pages" "$files" "$dir" <<'EOF'
import csv, io, os, sys
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

limit, files, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open("target/corpus/manifest.tsv", newline="") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
rows = rows[:limit] if limit else rows
paths = [os.path.join(out, f"bench-{i:02}.warc") for i in range(files)]
for i, path in enumerate(paths):
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=False)
        for row in rows[i::files]:
            with open(os.path.join("target/corpus", row["html"]), "rb") as page:
                body = page.read()
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
            uri = f"http://{row['dataset']}.example/{row['id']}"
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))
with open(os.path.join(out, "records.list"), "w") as records, open(os.path.join(out, "files.list"), "w") as listing:
    for path in paths:
        listing.write(path + "\n")
        with open(path, "rb") as f:
            it = ArchiveIterator(f)
            for rec in it:
                if rec.rec_type == "response":
                    offset = it.get_record_offset()
                    rec.content_stream().read()
                    it.read_to_end()
                    records.write(f"{path} {offset} {it.get_record_length()}\n")
EOF
warcs=("$dir"/bench-*.warc)
n=$(wc -l < "$out/records.list")
echo "WARC: $n records in ${#warcs[@]} files, $(du -ch "${warcs[@]}" | tail -1 | cut -f1)"

# In-process baseline: every core, as the workers get. Its documents are
# what every run through the queue must deliver.
# Sets t0 and t1.
baseline() {
  t0=$(date +%s.%N)
  "$bin" warc "${warcs[@]}" -o "$out/baseline.jsonl" --format jsonl 2>/dev/null
  t1=$(date +%s.%N)
}

limit=3
pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

# From the start of `linesift enqueue` (t0) until the sink has every
# document (t1), for one kind: through_queue NAME ENQUEUE-ARGS...
through_queue() {
  local name=$1 prefix ready w
  shift
  prefix=lsbench-$$-$name-$(date +%s%N)
  coproc SINK { "$sink" "$amqp" "$prefix" "$limit" "$docs"; }
  read -r -t 30 ready <&"${SINK[0]}"
  [ "$ready" = ready ] || { echo "sink did not start" >&2; exit 1; }
  for w in 1 2; do
    AMQP_URL=$amqp LINESIFT_PREFIX=$prefix "$bin" worker --http off --delivery-limit $limit \
      --no-bind-results --concurrency 8 --prefetch 16 2>"$out/worker-$name-$w.log" &
    pids+=($!)
  done
  until [ "$(cat "$out/worker-$name-1.log" "$out/worker-$name-2.log" 2>/dev/null | grep -c 'consuming from')" = 2 ]; do
    sleep 0.1
  done
  t0=$(date +%s.%N)
  AMQP_URL=$amqp LINESIFT_PREFIX=$prefix "$bin" enqueue --delivery-limit $limit "$@" 2>/dev/null
  t1=
  read -r -t 600 t1 <&"${SINK[0]}" || true
  for p in "${pids[@]}"; do kill -TERM "$p"; done
  wait "${pids[@]}" || true
  pids=()
  [ -n "$t1" ] || { echo "the sink did not get every document ($name)" >&2; exit 1; }
  echo done >&"${SINK[1]}"
  wait "${SINK_PID:-}" 2>/dev/null || true
}

kinds=(records files single)
declare -A costs=()
for ((round = 1; round <= rounds; round++)); do
  baseline
  docs=$(wc -l < "$out/baseline.jsonl")
  warc_rate=$(echo "$docs / ($t1 - $t0)" | bc -l)
  printf 'round %d: linesift warc (in-process): %8.1f documents/s (%d documents)\n' "$round" "$warc_rate" "$docs"
  for kind in "${kinds[@]}"; do
    case $kind in
      records) args=(--kind warc-records ${batch:+--batch "$batch"} "$out/records.list") ;;
      files) args=(--kind warc-files "$out/files.list") ;;
      single) args=(--kind warc-records --batch 1 "$out/records.list") ;;
    esac
    through_queue "$kind" "${args[@]}"
    rate=$(echo "$docs / ($t1 - $t0)" | bc -l)
    cost=$(echo "100 * (1 - $rate / $warc_rate)" | bc -l)
    costs[$kind]+="$cost "
    printf 'round %d: %-7s through RabbitMQ, 2 workers: %8.1f documents/s, queue cost %6.1f %%\n' \
      "$round" "$kind" "$rate" "$cost"
  done
done

# Median and range of a kind's costs.
summary() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{ v[NR] = $1 } END {
  m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
  printf "%6.1f %%  (rounds: %.1f to %.1f %%)", m, v[1], v[NR] }'; }
echo "queue cost, median of $rounds round(s) (bar: <= 20 % for records and files):"
for kind in "${kinds[@]}"; do
  label=$kind
  [ "$kind" = records ] && label="records (batch ${batch:-default})"
  [ "$kind" = single ] && label="single (batch 1, no bar)"
  printf '  %-28s %s\n' "$label" "$(echo "${costs[$kind]}" | summary)"
done
