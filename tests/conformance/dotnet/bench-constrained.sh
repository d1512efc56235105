#!/usr/bin/env bash
# Measures decode throughput of the constrained frame (Turn, codegen/tests/
# schemas/constraints.json) through the generated strict decoder vs a plain
# JsonDocument.Parse, one markdown row. Runs build.sh first (toolchain, and
# the checks of the goldens), then compiles OUTPUT_ROOT's Coprocess.cs with
# BenchConstrained.cs (C# 8, nullable, warnings as errors, optimized).
# Usage: tests/conformance/dotnet/bench-constrained.sh [OUTPUT_ROOT]
#   (default: codegen/tests/golden/constraints, the committed golden output;
#   generated/ has no constrained type)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUTPUT_ROOT="${1:-codegen/tests/golden/constraints}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
MODULE="$OUTPUT_ROOT/dotnet/src/Mcptest.Sdk/Coprocess.cs"
[ -f "$MODULE" ] || { echo "error: $MODULE does not exist" >&2; exit 1; }
BUILD="$ROOT/target/conformance/dotnet"
"$HERE/build.sh" >/dev/null
# shellcheck source=/dev/null
. "$BUILD/env.sh"
# shellcheck source=harness.sh
. "$HERE/harness.sh"
compile_harness "$BUILD/bench-constrained.dll" "$HERE/BenchConstrained.cs" "$MODULE"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$DOTNET" "$BUILD/bench-constrained.dll"
