#!/usr/bin/env bash
# Issue 36's pattern benchmark through the generated C# decoders: each probe
# of PROBES decoded by its probe type's decoder, the best of REPEATS decodes;
# one line per probe, `<number>\t<ms>\t<1 decoded, 0 refused>\t<ms as
# PatternProbePlain, the same frame without a pattern>`
# (tests/conformance/bench-patterns.sh runs it and reads the lines).
#
#   tests/conformance/dotnet/bench-patterns.sh OUTPUT_ROOT PROBES [REPEATS]
#
# Compiles OUTPUT_ROOT's Coprocess.cs with BenchPatterns.cs (C# 8, nullable,
# warnings as errors, optimized) with the SDK build.sh found (it runs first
# when it has not) and runs it.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT_ROOT PROBES [REPEATS]" >&2; exit 2; }
MODULE="$1/dotnet/src/Mcptest.Sdk/Coprocess.cs"
[ -f "$MODULE" ] || { echo "error: $MODULE does not exist" >&2; exit 1; }
BUILD="$ROOT/target/conformance/dotnet"
[ -f "$BUILD/env.sh" ] || "$HERE/build.sh" >&2
# shellcheck source=/dev/null
. "$BUILD/env.sh"
# shellcheck source=harness.sh
. "$HERE/harness.sh"
compile_harness "$BUILD/bench-patterns.dll" "$HERE/BenchPatterns.cs" "$MODULE" >&2
exec "$DOTNET" "$BUILD/bench-patterns.dll" "$2" "${3:-3}"
