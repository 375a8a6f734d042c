#!/usr/bin/env bash
# Where the core's time goes, in time rather than instructions: samples
# `examples/throughput` with perf's cpu-clock event (a software timer, so
# it works on VMs without hardware counters, where `perf stat` says "not
# supported") and prints each function's share of the samples taken in
# user space (the page files are read by the kernel, before the timed
# calls or, with --read-each, between them: kernel samples are left out).
#
# Why next to callgrind: callgrind counts instructions, which do not show
# what a cold cache line, a mispredicted branch or a store the next load
# cannot forward from costs. Some functions' share of the
# time is two to four times their share of the instructions this way
# (docs/benchmarks.md, "Where the time goes").
#
# usage: scripts/profile-time.sh [--list FILE] [--rounds N] [--top N] [-- THROUGHPUT_ARGS...]
#   --list FILE  page paths, one a line (default: every corpus page)
#   --rounds N   passes over the list (default 3: more samples)
#   --top N      functions to print (default 30)
#   after --, arguments for examples/throughput (e.g. --read-each)
# Needs perf (Debian: linux-perf). Builds the example with line tables into
# target/profile-time, apart from the release build.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
list=
rounds=3
top=30
while [ $# -gt 0 ]; do
  case $1 in
    --list) list=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
command -v perf >/dev/null || { echo "perf not found (Debian: apt-get install linux-perf)" >&2; exit 1; }
corpus=$here/target/corpus
out=$here/target/profile-time
mkdir -p "$out"
if [ -z "$list" ]; then
  [ -f "$corpus/manifest.tsv" ] || "$here/../shared/corpus/unpack.sh" "$corpus" >&2
  list=$out/pages.txt
  awk -F'\t' -v root="$corpus" 'NR > 1 { print root "/" $3 }' "$corpus/manifest.tsv" > "$list"
fi
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only CARGO_TARGET_DIR=$out/build \
  cargo build --release --quiet --example throughput --manifest-path "$here/Cargo.toml"
perf record -q -e cpu-clock -F 4000 -o "$out/perf.data" \
  "$out/build/release/examples/throughput" "$list" --rounds "$rounds" "$@"
perf report -i "$out/perf.data" --no-children --sort symbol --stdio 2>/dev/null |
  awk -v top="$top" '
    $2 == "[.]" {
      share = $1; sub("%", "", share)
      name = $3; for (i = 4; i <= NF && $i != "-"; i++) name = name " " $i
      n++; shares[n] = share; names[n] = name; total += share
    }
    END {
      if (total == 0) { print "no user-space samples" > "/dev/stderr"; exit 1 }
      printf "share of %.1f %% of all samples taken in user space\n", total
      for (i = 1; i <= n && i <= top; i++) printf "%6.1f %%  %s\n", 100 * shares[i] / total, names[i]
    }'
