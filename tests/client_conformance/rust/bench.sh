#!/usr/bin/env bash
# The Rust session client's own CPU per call next to a raw write-a-line/
# read-a-line loop's, and its resident set (see src/bench.rs); the report also
# goes to target/client_bench/rust.txt.
#   tests/client_conformance/rust/bench.sh [CALLS [ROUNDS]]   (default 100000 5)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
CLIENT_PROFILE=release bash "$here/build.sh" >&2
mkdir -p "$root/target/client_bench"
"$root/target/conformance-rust/release/client_bench" "$@" | tee "$root/target/client_bench/rust.txt"
