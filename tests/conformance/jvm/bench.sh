#!/usr/bin/env bash
# Measures the generated strict decoders against Jackson's plain readTree.
#   tests/conformance/jvm/bench.sh [OUTPUT_ROOT]   (default OUTPUT_ROOT: generated)
# Builds first (build.sh), then prints one markdown row per frame:
# | jvm | <frame> | <strict fr/s> | <plain fr/s> | <ratio plain/strict> |
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
"$HERE/build.sh" "${1:-generated}"
BUILD="$ROOT/target/conformance/jvm"
# LIB, JAVAC and JAVA.
# shellcheck source=harness.sh
. "$HERE/harness.sh"
mkdir -p "$BUILD/bench"
"$JAVAC" --release 17 -Xlint:all -Werror -proc:none -encoding UTF-8 \
    -cp "$BUILD/classes:$LIB/*" -d "$BUILD/bench" "$HERE/Bench.java"
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$JAVA" -XX:+UseSerialGC -cp "$BUILD/bench:$BUILD/classes:$LIB/*" Bench
