#!/usr/bin/env bash
# Runs the Rust conformance testee: NDJSON cases on stdin, answers on stdout.
#   run.sh [--library]   (--library: the protocol library's testee, testee-lib)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
testee=testee
[ "${1:-}" = --library ] && testee=testee-lib
exec "${CONFORMANCE_BUILD:-$root/target/conformance-rust}/testees/$testee"
