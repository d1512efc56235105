#!/usr/bin/env bash
# Runs the JVM conformance testee built by build.sh: NDJSON cases on stdin,
# one answer line each on stdout. One JVM handles every line; the flags favour
# start-up time (client compiler, serial GC, class-data sharing).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
LIB="$ROOT/target/toolchains/jvm-lib"
BUILD="${CONFORMANCE_BUILD:-$ROOT/target/conformance/jvm}"
JAVA="java"
if ! command -v java >/dev/null && [ -x "$ROOT/target/toolchains/jdk/bin/java" ]; then
    JAVA="$ROOT/target/toolchains/jdk/bin/java"
fi
exec "$JAVA" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
    -cp "$BUILD/testee:$BUILD/classes:$LIB/*" Testee
