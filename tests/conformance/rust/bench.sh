#!/usr/bin/env bash
# Decode throughput of the generated strict Rust decoders vs serde_json::Value
# (run build.sh first). Prints markdown table rows.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
exec "$root/target/conformance-rust/release/bench"
