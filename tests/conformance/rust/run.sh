#!/usr/bin/env bash
# Runs the Rust conformance testee: NDJSON cases on stdin, answers on stdout.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
exec "${CONFORMANCE_BUILD:-$root/target/conformance-rust}/release/testee"
