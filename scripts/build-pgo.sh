#!/usr/bin/env bash
# Profile-guided release build of linesift: the build for production.
#
# The core is one long chain of branchy byte loops (scanner, tokenizer,
# headline), which is what profile-guided optimisation helps most: measured
# on held-out corpus pages, the core runs 12-15 % faster (docs/benchmarks.md).
# Steps: build with instrumentation, run it over training pages
# (scripts/pgo_pages.py makes them from a fixed seed: no data from outside
# the repository), merge the counts, build again using them.
#
# Needs llvm-profdata of the same LLVM major version as rustc
# (`rustc -vV` says which): Debian's `llvm-NN` package (apt-get install
# llvm-22 for rustc 1.95) or `rustup component add llvm-tools`;
# LLVM_PROFDATA=/path/to/llvm-profdata overrides the search. Python 3 runs
# the page generator.
#
# usage: scripts/build-pgo.sh [--target-cpu CPU] [PAGES]   (training pages, default 400)
#   --target-cpu CPU  also compile for that CPU level, e.g. x86-64-v3 (AVX2,
#                     BMI2: x86 servers since 2013, every cloud x86 machine):
#                     another 7 % or so, and a binary that stops with an
#                     illegal instruction on older CPUs. Default: portable.
# Result: target/pgo/use/release/linesift (and examples/throughput, for
# scripts/bench-speed.sh --pgo). Plain `cargo build --release` is untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
# Extra rustc flags of both builds (the same in each, so that the profile
# matches the code), one array element a flag.
extra_flags=()
if [ "${1:-}" = "--target-cpu" ]; then
  extra_flags+=("-Ctarget-cpu=${2:?--target-cpu CPU}")
  shift 2
fi
pages=${1:-400}
root=$PWD/target/pgo

# Its arguments as CARGO_ENCODED_RUSTFLAGS wants them: separated by the
# ASCII unit separator (0x1f), not by spaces, so that a checkout whose path
# has a space in it (the profile paths below) passes each flag whole.
# RUSTFLAGS splits at every space.
encoded_rustflags() {
  local IFS=$'\x1f'
  printf '%s' "$*"
}

llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=${LLVM_PROFDATA:-}
if [ -z "$profdata" ]; then
  for candidate in "llvm-profdata-$llvm_major" \
    "$(rustc --print sysroot)/lib/rustlib/$host/bin/llvm-profdata"; do
    if command -v "$candidate" >/dev/null 2>&1; then
      profdata=$candidate
      break
    fi
  done
fi
if [ -z "$profdata" ]; then
  echo "build-pgo: no llvm-profdata for LLVM $llvm_major: apt-get install llvm-$llvm_major," >&2
  echo "  or rustup component add llvm-tools, or set LLVM_PROFDATA" >&2
  exit 1
fi

echo "== training pages ($pages, from a fixed seed)"
rm -rf "$root/pages" "$root/data"
python3 scripts/pgo_pages.py "$root/pages" "$pages"

echo "== instrumented build"
# The same flags in both builds, so that the profile matches the code.
CARGO_ENCODED_RUSTFLAGS=$(encoded_rustflags "-Cprofile-generate=$root/data" ${extra_flags[@]+"${extra_flags[@]}"}) \
  cargo build --release --locked --quiet --target-dir "$root/gen" --bin linesift --example throughput

echo "== training runs: the core, extract (streamed files) and warc"
gen=$root/gen/release
"$gen/examples/throughput" "$root/pages/pages.txt" --rounds 3 >/dev/null
"$gen/linesift" extract --from "$root/pages/pages.txt" --format jsonl --jobs 1 >/dev/null
"$gen/linesift" warc "$root/pages/pages.warc.gz" -o "$root/pages/out.jsonl" --jobs 1 2>/dev/null
"$profdata" merge -o "$root/linesift.profdata" "$root/data"

echo "== optimised build"
CARGO_ENCODED_RUSTFLAGS=$(encoded_rustflags "-Cprofile-use=$root/linesift.profdata" ${extra_flags[@]+"${extra_flags[@]}"}) \
  cargo build --release --locked --quiet --target-dir "$root/use" --bin linesift --example throughput
echo "built $root/use/release/linesift"
