#!/usr/bin/env bash
# Runs the cargo-fuzz targets in fuzz/ for a bounded time each and prints
# one summary line per target; exits non-zero when any target crashed.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default 60, all)
#
# Works on stable Rust: RUSTC_BOOTSTRAP=1 lets stable rustc take the -Z
# flags cargo-fuzz passes. FUZZ_SANITIZER=none builds without ASan (still
# coverage-guided; panics and bounds checks are what is looked for).
# Corpora grow in fuzz/corpus/<target>/ (gitignored), crashes land in
# fuzz/artifacts/<target>/.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
sanitizer=${FUZZ_SANITIZER:-address}
all=(extract_whole extract_chunked charset warc_plain warc_gzip warc_zstd http_head task_decode)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

export RUSTC_BOOTSTRAP=1
# libdeflate (the gzip fast path, src/codec/container/libdeflate.rs) has the same
# `static const` table in several places (its decompressor template is
# compiled once per CPU variant; the compressor keeps its own copy). ASan's
# ODR check reports these internal-linkage read-only tables as a violation
# before a single input runs. It is not a memory error; every other check
# stays on.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_odr_violation=0}
command -v cargo-fuzz >/dev/null 2>&1 || cargo install --locked cargo-fuzz

# The build lives outside the checkout so that a fresh clone on the same
# machine (CI) reuses it: the first build compiles every dependency with
# ASan in release mode and takes many minutes on two cores.
target_dir=${FUZZ_TARGET_DIR:-$HOME/.cache/linesift/fuzz-target}
mkdir -p "$target_dir"

echo "== build (sanitizer: $sanitizer, target dir: $target_dir)"
(cd fuzz && cargo fuzz build -O --debug-assertions --sanitizer "$sanitizer" --target-dir "$target_dir")

echo "== seeds"
python3 fuzz/seed.py

bin=$target_dir/x86_64-unknown-linux-gnu/release
logs=fuzz/logs
mkdir -p "$logs"
summary=()
failed=0
for t in "${targets[@]}"; do
  echo "== $t: ${seconds}s"
  mkdir -p "fuzz/artifacts/$t"
  before=$(find "fuzz/artifacts/$t" -type f | wc -l)
  start=$(date +%s)
  rc=0
  # timeout is a backstop only: libFuzzer stops itself at max_total_time.
  timeout --signal=INT --kill-after=30 $((seconds + 120)) \
    "$bin/$t" "fuzz/corpus/$t" \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
      -print_final_stats=1 -artifact_prefix="fuzz/artifacts/$t/" \
      >"$logs/$t.log" 2>&1 || rc=$?
  took=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log" | tail -1)
  crashes=$(( $(find "fuzz/artifacts/$t" -type f | wc -l) - before ))
  if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then crashes="rc=$rc"; fi
  [ "$crashes" = 0 ] || failed=1
  summary+=("$(printf '%-16s %6ss %12s execs  crashes: %s' "$t" "$took" "${execs:-?}" "$crashes")")
  tail -n 3 "$logs/$t.log" | sed 's/^/    /'
done

echo "== summary (logs in $logs/)"
printf '%s\n' "${summary[@]}"
exit "$failed"
