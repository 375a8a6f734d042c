#!/usr/bin/env bash
# Tasks per second end to end through RabbitMQ (`linesift enqueue` of N
# WARC-record tasks -> 2 `linesift worker` processes -> a consumer of the
# results exchange, examples/worker_sink.rs) against `linesift warc` on the
# same WARC in-process, and the queue's cost in percent (bar: <= 20 %).
# The WARC is built from the development corpus (../shared/corpus) under
# target/bench-worker and never committed. Needs RabbitMQ on AMQP_URL.
# usage: scripts/bench-worker.sh [PAGES]   (default: all corpus pages)
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-0}
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

# A plain WARC of the corpus pages and one `path offset length` line per
# response record.
warc=$(realpath "$out")/bench.warc
.venv/bin/python - "$pages" "$warc" "$out/records.list" <<'EOF'
import csv, io, os, sys
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

limit, warc, listing = int(sys.argv[1]), sys.argv[2], sys.argv[3]
manifest = "target/corpus/manifest.tsv"
with open(manifest, newline="") as f:
    rows = list(csv.DictReader(f, delimiter="\t"))
rows = rows[:limit] if limit else rows
with open(warc, "wb") as f:
    writer = WARCWriter(f, gzip=False)
    for row in rows:
        with open(os.path.join("target/corpus", row["html"]), "rb") as page:
            body = page.read()
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        uri = f"http://{row['dataset']}.example/{row['id']}"
        writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http))
with open(warc, "rb") as f, open(listing, "w") as out:
    it = ArchiveIterator(f)
    for rec in it:
        if rec.rec_type == "response":
            offset = it.get_record_offset()
            rec.content_stream().read()
            it.read_to_end()
            out.write(f"{warc} {offset} {it.get_record_length()}\n")
EOF
n=$(wc -l < "$out/records.list")
echo "WARC: $n records, $(du -h "$warc" | cut -f1)"

# In-process baseline: every core, as the workers get.
t0=$(date +%s.%N)
"$bin" warc "$warc" -o /dev/null --format jsonl 2>/dev/null
t1=$(date +%s.%N)
warc_rate=$(echo "$n / ($t1 - $t0)" | bc -l)

# Through the broker.
prefix=lsbench-$$-$(date +%s)
limit=3
pids=()
cleanup() { for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
coproc SINK { "$sink" "$amqp" "$prefix" "$limit" "$n"; }
read -r -t 30 ready <&"${SINK[0]}"
[ "$ready" = ready ] || { echo "sink did not start" >&2; exit 1; }
for w in 1 2; do
  AMQP_URL=$amqp LINESIFT_PREFIX=$prefix "$bin" worker --http off --delivery-limit $limit \
    --no-bind-results --concurrency 8 --prefetch 16 2>"$out/worker-$w.log" &
  pids+=($!)
done
until [ "$(grep -c 'consuming from' "$out"/worker-[12].log 2>/dev/null | awk -F: '{s+=$2} END {print s}')" = 2 ]; do
  sleep 0.1
done
t0=$(date +%s.%N)
AMQP_URL=$amqp LINESIFT_PREFIX=$prefix "$bin" enqueue --kind warc-records --delivery-limit $limit \
  "$out/records.list" 2>/dev/null
read -r -t 600 t1 <&"${SINK[0]}"
queue_rate=$(echo "$n / ($t1 - $t0)" | bc -l)
for p in "${pids[@]}"; do kill -TERM "$p"; done
wait "${pids[@]}" || true
pids=()
echo done >&"${SINK[1]}"
wait "${SINK_PID:-}" 2>/dev/null || true
cost=$(echo "100 * (1 - $queue_rate / $warc_rate)" | bc -l)

printf 'linesift warc (in-process):  %8.1f tasks/s\n' "$warc_rate"
printf 'through RabbitMQ, 2 workers: %8.1f tasks/s\n' "$queue_rate"
printf 'queue cost:                  %8.1f %%  (bar: <= 20 %%)\n' "$cost"
