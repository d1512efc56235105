#!/usr/bin/env bash
# Decode throughput of the generated strict Rust decoders vs serde_json::Value
# (run build.sh first). Prints markdown table rows.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
# The benchmark is built optimized (build.sh builds the testees unoptimized).
(cd "$here" && CARGO_TARGET_DIR="$root/target/conformance-rust" cargo build --quiet --locked --release --bin bench) >&2
exec "$root/target/conformance-rust/release/bench"
