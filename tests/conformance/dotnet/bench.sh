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
CSC="$(ls "$(dirname "$DOTNET")"/sdk/*/Roslyn/bincore/csc.dll | sort -V | tail -n 1)"
REF_DIR="$(ls -d "$(dirname "$DOTNET")"/packs/Microsoft.NETCore.App.Ref/3.1.*/ref/netcoreapp3.1 | sort -V | tail -n 1)"
REFS=()
for dll in "$REF_DIR"/*.dll; do REFS+=("-r:$dll"); done
"$DOTNET" "$CSC" -nologo -noconfig -nostdlib -langversion:8.0 -nullable:enable -warnaserror -optimize+ \
    "${REFS[@]}" -target:exe -out:"$BUILD/bench.dll" "$HERE/Bench.cs" "$OUTPUT_ROOT/dotnet/src/Mcptest.Sdk/Coprocess.cs"
cp "$BUILD/testee.runtimeconfig.json" "$BUILD/bench.runtimeconfig.json"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$DOTNET" "$BUILD/bench.dll"
