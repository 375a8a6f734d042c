#!/usr/bin/env bash
# Times linesift reading a WARC over loopback HTTP against the same file
# read locally: a whole file, and every record through a CDXJ index (a
# ranged request a record). The WARC is built from the development corpus
# (../shared/corpus) as scripts/bench-warc.sh builds it, and served by
# scripts/bench_remote.py's Range-capable origin. Everything it makes stays
# under target/bench-remote.
# LINESIFT=/path/to/linesift times that binary instead of building this tree.
# --nginx serves it from an nginx of its own on a free loopback port instead
# (Debian's nginx: a static origin as archives run, whose CPU is not
# counted; the Python origin's is).
#
# usage: [LINESIFT=...] scripts/bench-remote.sh [--nginx] [PAGES]   (default: all corpus pages)
set -euo pipefail
cd "$(dirname "$0")/.."
nginx=
[ "${1:-}" = "--nginx" ] && { nginx=1; shift; }
pages=${1:-0}
target=${CARGO_TARGET_DIR:-target}
out=target/bench-remote
mkdir -p "$out"
[ -f target/corpus/manifest.tsv ] || ../shared/corpus/unpack.sh target/corpus
# warcio builds the WARC; bench_warc.py, whose WARC this is, also writes a
# zstd one (zstandard).
.venv/bin/python -c "import warcio, zstandard" 2>/dev/null || {
  [ -x .venv/bin/python ] || python3 -m venv .venv
  echo "bench-remote: installing into .venv: warcio zstandard" >&2
  .venv/bin/pip install -q warcio zstandard
}
if [ -n "${LINESIFT:-}" ]; then
  bin=$LINESIFT
else
  cargo build --release --quiet
  bin=$target/release/linesift
fi
origin=()
if [ -n "$nginx" ]; then
  command -v nginx >/dev/null || PATH=$PATH:/usr/sbin
  command -v nginx >/dev/null || { echo "bench-remote: no nginx (apt-get install nginx-light)" >&2; exit 1; }
  root=$(cd "$out" && pwd)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  mkdir -p "$root/nginx-tmp"
  cat > "$root/nginx.conf" <<EOF
daemon off;
worker_processes 1;
pid $root/nginx.pid;
error_log $root/nginx.err;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  keepalive_requests 1000000;
  client_body_temp_path $root/nginx-tmp;
  proxy_temp_path $root/nginx-tmp;
  fastcgi_temp_path $root/nginx-tmp;
  uwsgi_temp_path $root/nginx-tmp;
  scgi_temp_path $root/nginx-tmp;
  server { listen 127.0.0.1:$port; root $root; }
}
EOF
  nginx -p "$root" -c "$root/nginx.conf" &
  trap 'kill $! 2>/dev/null' EXIT
  sleep 0.5
  origin=(--origin "http://127.0.0.1:$port/")
fi
.venv/bin/python scripts/bench_remote.py --manifest target/corpus/manifest.tsv \
  --pages "$pages" --out "$out" --linesift "$bin" "${origin[@]}"
