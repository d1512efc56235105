#!/usr/bin/env bash
# Measures the generated strict decoder of the constrained frame (Turn,
# codegen/tests/schemas/constraints.json) against Jackson's plain readTree.
#   tests/conformance/jvm/bench-constrained.sh [OUTPUT_ROOT]
#     (default OUTPUT_ROOT: codegen/tests/golden/constraints, the committed
#     golden output; generated/ has no constrained type)
# Builds first (build.sh, which checks the goldens and fetches Jackson), then
# compiles OUTPUT_ROOT's Coprocess.java with BenchConstrained.java and prints
# one markdown row:
# | jvm | Turn (constrained) | <strict fr/s> | <plain fr/s> | <ratio plain/strict> |
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUTPUT_ROOT="${1:-codegen/tests/golden/constraints}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
MODULE="$OUTPUT_ROOT/jvm/src/main/java/dev/mcptest/Coprocess.java"
[ -f "$MODULE" ] || { echo "error: $MODULE does not exist" >&2; exit 1; }
"$HERE/build.sh" >&2
# shellcheck source=harness.sh
. "$HERE/harness.sh"
compile_harness bench-constrained "$MODULE" "$HERE/BenchConstrained.java"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$JAVA" -XX:+UseSerialGC -cp "$HARNESS:$LIB/*" BenchConstrained
