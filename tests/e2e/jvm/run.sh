#!/usr/bin/env bash
# Runs the JVM end-to-end client (see tests/e2e.rs for its environment). The
# flags favour start-up time (client compiler, serial GC, class-data sharing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/target/e2e/jvm"
exec "$(cat "$out/java")" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
  -cp "$out/classes:$root/target/toolchains/jvm-lib/*" Client
