#!/usr/bin/env bash
# Measures decode throughput of the generated strict decoders vs a plain
# JsonDocument.Parse, one markdown row per frame. Builds with build.sh first.
# Usage: tests/conformance/dotnet/bench.sh [OUTPUT_ROOT]   (default: generated)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUTPUT_ROOT="${1:-generated}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
BUILD="$ROOT/target/conformance/dotnet"
"$HERE/build.sh" "$OUTPUT_ROOT" >/dev/null
# shellcheck source=/dev/null
. "$BUILD/env.sh"
# shellcheck source=harness.sh
. "$HERE/harness.sh"
compile_harness "$BUILD/bench.dll" "$HERE/Bench.cs" "$OUTPUT_ROOT/dotnet/src/Mcptest.Sdk/Coprocess.cs"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$DOTNET" "$BUILD/bench.dll"
