#!/usr/bin/env bash
# Runs the JVM client testee (see Testee.java); build.sh first. The flags
# favour start-up time (client compiler, serial GC, class-data sharing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/jvm"
exec "$(cat "$state/java")" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto \
  -cp "$state/classes:$root/target/toolchains/jvm-lib/*" Testee
