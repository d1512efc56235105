#!/usr/bin/env bash
# Issue 36's pattern benchmark through the generated Rust decoders: each
# probe of PROBES decoded by its probe type's decoder, the best of REPEATS
# decodes; one line per probe, `<number>\t<ms>\t<1 decoded, 0 refused>\t<ms as
# PatternProbePlain, the same frame without a pattern>`
# (tests/conformance/bench-patterns.sh runs it and reads the lines).
#
#   tests/conformance/rust/bench-patterns.sh OUTPUT_ROOT PROBES [REPEATS]
#
# Writes a small crate under target/conformance-rust/bench-patterns (the
# testee's Cargo.toml and Cargo.lock, renamed, as bench-constrained.sh does):
# a library of OUTPUT_ROOT's coprocess.rs and the bench_patterns.rs binary;
# builds it (release) and runs it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT_ROOT PROBES [REPEATS]" >&2; exit 2; }
module="$1/rust/mcptest-runner/src/coprocess.rs"
[ -f "$module" ] || { echo "error: $module does not exist" >&2; exit 1; }
module="$(cd "$(dirname "$module")" && pwd)/coprocess.rs"
export CARGO_TARGET_DIR="$root/target/conformance-rust"
crate="$CARGO_TARGET_DIR/bench-patterns"
mkdir -p "$crate/src"

# Files are replaced only when their text changes (cargo goes by mtime).
put() { cmp -s "$1" "$2" 2>/dev/null || mv "$1" "$2"; rm -f "$1"; }
{
  sed -e 's/^name = "conformance-testee-rust"/name = "conformance-bench-patterns-rust"/' \
    -e "/^\[\[bin\]\]/,/^$/d" -e "/^\[lib\]/,/^$/d" "$here/Cargo.toml"
  printf '\n[lib]\npath = "src/lib.rs"\n\n[[bin]]\nname = "bench-patterns"\npath = "%s"\n' "$here/bench_patterns.rs"
} >"$crate/Cargo.toml.new"
put "$crate/Cargo.toml.new" "$crate/Cargo.toml"
sed 's/^name = "conformance-testee-rust"/name = "conformance-bench-patterns-rust"/' "$here/Cargo.lock" >"$crate/Cargo.lock.new"
put "$crate/Cargo.lock.new" "$crate/Cargo.lock"
{
  echo "//! The generated Rust frames of one output root, for bench_patterns.rs"
  echo "//! (written by bench-patterns.sh)."
  echo "#[path = \"$module\"]"
  echo "pub mod coprocess;"
} >"$crate/src/lib.rs.new"
put "$crate/src/lib.rs.new" "$crate/src/lib.rs"

(cd "$crate" && cargo build --quiet --locked --release --bins) >&2
exec "$CARGO_TARGET_DIR/release/bench-patterns" "$2" "${3:-3}"
