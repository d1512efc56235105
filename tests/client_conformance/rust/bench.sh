#!/usr/bin/env bash
# The Rust session client's speed: calls per second through the generated
# client next to a raw write-a-line/read-a-line loop, and peak memory.
#   tests/client_conformance/rust/bench.sh [CALLS]   (default 100000)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bash "$here/build.sh" >&2
exec "$root/target/conformance-rust/release/client_bench" "$@"
