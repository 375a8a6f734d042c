# --- fuzz: short run of every cargo-fuzz target (issue #8) -----------------
# To be merged into .ci/run after the tests. Builds the fuzz crate (its own
# workspace under fuzz/, ASan, stable Rust via RUSTC_BOOTSTRAP=1 inside the
# script), seeds the corpora from the fixtures and runs each of the 8
# targets for 20 s. Cost: ~8 x 20 s = 160 s of fuzzing, plus the first
# build of the fuzz crate (see fuzz/README.md for measured times) and
# `cargo install cargo-fuzz` when it is missing. Fails on any crash.
echo "== fuzz (20 s per target)"
scripts/fuzz.sh 20
# ---------------------------------------------------------------------------
