#!/usr/bin/env bash
# Decode throughput of the generated strict TypeScript decoders vs JSON.parse.
#   tests/conformance/typescript/bench.sh [SECONDS_PER_MEASURE]
# Runs build.sh first (it does nothing when its inputs are unchanged), so the
# bench never measures a stale build of coprocess.ts or bench.ts.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bench="$root/target/conformance/typescript/dist/bench.js"
"$here/build.sh" >&2
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
exec node "$bench" "${1:-2}"
