# --- fuzz: short run of every cargo-fuzz target (issue #8) -----------------
# To be merged into .ci/run after the tests. Builds the fuzz crate (its own
# workspace under fuzz/, ASan, stable Rust via RUSTC_BOOTSTRAP=1 inside the
# script), seeds the corpora from the fixtures and runs each of the 8
# targets for 20 s. Cost: 8 x ~21 s = ~3 min of fuzzing, plus the build of
# the fuzz crate (release + ASan, all of linesift's dependencies: 18 min
# cold on 2 busy cores here, ~1 min when only linesift changed; CI should
# cache fuzz/target) and `cargo install cargo-fuzz` (~2 min) when missing.
# Fails on any crash; inputs in fuzz/artifacts/<target>/.
echo "== fuzz (20 s per target)"
scripts/fuzz.sh 20
# ---------------------------------------------------------------------------
