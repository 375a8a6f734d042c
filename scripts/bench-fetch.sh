#!/usr/bin/env bash
# Fetch-and-extract throughput from a local server on 127.0.0.1 at 1, 16 and
# 100 concurrent connections, with memory per in-flight page.
# Usage: scripts/bench-fetch.sh [PAGES] [PARAGRAPHS]   (defaults 2000, 60)
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo run --release --quiet --example bench_fetch -- "$@"
