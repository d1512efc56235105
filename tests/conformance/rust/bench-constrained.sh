#!/usr/bin/env bash
# Decode throughput of the constrained frame (`Turn`, codegen/tests/schemas/
# constraints.json) through the generated strict Rust decoder vs
# serde_json::Value. Prints markdown table rows.
#
#   tests/conformance/rust/bench-constrained.sh [OUTPUT_ROOT]
#     (default OUTPUT_ROOT: codegen/tests/golden/constraints, the committed
#     golden output; generated/ has no constrained type)
#
# Writes a small crate under target/conformance-rust/bench-constrained (the
# testee's Cargo.toml and Cargo.lock, renamed, as build.sh does for the
# goldens): a library of OUTPUT_ROOT's coprocess.rs and the bench_constrained.rs
# binary; runs clippy on it with build.sh's lints, then builds it (release) and
# runs it. build.sh's checks of the goldens (rustfmt, clippy) are not repeated.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
output_root="${1:-codegen/tests/golden/constraints}"
case "$output_root" in /*) ;; *) output_root="$root/$output_root" ;; esac
module="$output_root/rust/mcptest-runner/src/coprocess.rs"
[ -f "$module" ] || { echo "error: $module does not exist" >&2; exit 1; }
export CARGO_TARGET_DIR="$root/target/conformance-rust"
crate="$CARGO_TARGET_DIR/bench-constrained"
mkdir -p "$crate/src"

# Files are replaced only when their text changes (cargo goes by mtime).
put() { cmp -s "$1" "$2" 2>/dev/null || mv "$1" "$2"; rm -f "$1"; }
{
  sed -e 's/^name = "conformance-testee-rust"/name = "conformance-bench-constrained-rust"/' \
    -e "/^\[\[bin\]\]/,/^$/d" -e "/^\[lib\]/,/^$/d" "$here/Cargo.toml"
  printf '\n[lib]\npath = "src/lib.rs"\n\n[[bin]]\nname = "bench-constrained"\npath = "%s"\n' "$here/bench_constrained.rs"
} >"$crate/Cargo.toml.new"
put "$crate/Cargo.toml.new" "$crate/Cargo.toml"
sed 's/^name = "conformance-testee-rust"/name = "conformance-bench-constrained-rust"/' "$here/Cargo.lock" >"$crate/Cargo.lock.new"
put "$crate/Cargo.lock.new" "$crate/Cargo.lock"
{
  echo "//! The generated Rust frames of one output root, for bench_constrained.rs"
  echo "//! (written by bench-constrained.sh)."
  echo "#[path = \"$module\"]"
  echo "pub mod coprocess;"
} >"$crate/src/lib.rs.new"
put "$crate/src/lib.rs.new" "$crate/src/lib.rs"

lints=(-D warnings -D clippy::unwrap_used -D clippy::panic -D clippy::must_use_candidate -D clippy::missing_errors_doc)
(cd "$crate" && cargo clippy --quiet --locked --release --all-targets -- "${lints[@]}") >&2
(cd "$crate" && cargo build --quiet --locked --release --bins) >&2
exec "$CARGO_TARGET_DIR/release/bench-constrained"
