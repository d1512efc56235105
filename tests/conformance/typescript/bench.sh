#!/usr/bin/env bash
# Decode throughput of the generated strict TypeScript decoders vs JSON.parse.
#   tests/conformance/typescript/bench.sh [SECONDS_PER_MEASURE]
# Builds first when the testee is not built (see build.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bench="$root/target/conformance/typescript/dist/bench.js"
if [ ! -f "$bench" ]; then
  "$here/build.sh" >&2
fi
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
exec node "$bench" "${1:-2}"
