#!/usr/bin/env bash
# Decode throughput of the constrained frame (Turn, codegen/tests/schemas/
# constraints.json) through the generated strict Go decoder vs json.Unmarshal
# into any, one markdown row:
# | go | Turn (constrained) | <strict fr/s> | <plain fr/s> | <ratio plain/strict> |
# usage: tests/conformance/go/bench-constrained.sh [OUTPUT_ROOT]
#   (default OUTPUT_ROOT: codegen/tests/golden/constraints, the committed
#   golden output; generated/ has no constrained type)
# Uses the Go build.sh found (run build.sh first; it checks the goldens);
# checks bench-constrained/main.go with gofmt and go vet, then builds and runs
# it (harness.sh).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUTPUT_ROOT="${1:-codegen/tests/golden/constraints}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
[ -f "$OUTPUT_ROOT/go/coprocess.go" ] || { echo "error: $OUTPUT_ROOT/go/coprocess.go does not exist" >&2; exit 1; }

# shellcheck source=harness.sh
. "$HERE/harness.sh"
BENCH="$(build_harness bench-constrained "$HERE/bench-constrained/main.go" "$OUTPUT_ROOT")"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$BENCH"
