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
CSC="$(ls "$(dirname "$DOTNET")"/sdk/*/Roslyn/bincore/csc.dll | sort -V | tail -n 1)"
REF_DIR="$(ls -d "$(dirname "$DOTNET")"/packs/Microsoft.NETCore.App.Ref/3.1.*/ref/netcoreapp3.1 | sort -V | tail -n 1)"
REFS=()
for dll in "$REF_DIR"/*.dll; do REFS+=("-r:$dll"); done
"$DOTNET" "$CSC" -nologo -noconfig -nostdlib -langversion:8.0 -nullable:enable -warnaserror -optimize+ \
    "${REFS[@]}" -target:exe -out:"$BUILD/bench-constrained.dll" "$HERE/BenchConstrained.cs" "$MODULE"
cp "$BUILD/testee.runtimeconfig.json" "$BUILD/bench-constrained.runtimeconfig.json"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$DOTNET" "$BUILD/bench-constrained.dll"
