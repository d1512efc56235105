#!/usr/bin/env bash
# Issue 36's pattern benchmark through the generated Java decoders: each
# probe of PROBES decoded by its probe type's decoder, the best of REPEATS
# decodes; one line per probe, `<number>\t<ms>\t<1 decoded, 0 refused>\t<ms as
# PatternProbePlain, the same frame without a pattern>`
# (tests/conformance/bench-patterns.sh runs it and reads the lines).
#
#   tests/conformance/jvm/bench-patterns.sh OUTPUT_ROOT PROBES [REPEATS]
#
# Compiles OUTPUT_ROOT's Coprocess.java with BenchPatterns.java (javac
# -Xlint:all -Werror, Jackson from target/toolchains/jvm-lib, which build.sh
# fetches: it runs first when the jars are missing) and runs it.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT_ROOT PROBES [REPEATS]" >&2; exit 2; }
MODULE="$1/jvm/src/main/java/dev/mcptest/Coprocess.java"
[ -f "$MODULE" ] || { echo "error: $MODULE does not exist" >&2; exit 1; }
ls "$ROOT"/target/toolchains/jvm-lib/jackson-databind-*.jar >/dev/null 2>&1 || "$HERE/build.sh" >&2
# shellcheck source=harness.sh
. "$HERE/harness.sh"
compile_harness bench-patterns "$MODULE" "$HERE/BenchPatterns.java"
exec "$JAVA" -XX:+UseSerialGC -cp "$HARNESS:$LIB/*" BenchPatterns "$2" "${3:-3}"
