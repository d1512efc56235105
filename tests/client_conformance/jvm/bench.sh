#!/usr/bin/env bash
# The JVM session client's own CPU per call next to a raw write-a-line/
# read-a-line loop's, and its resident set (see Bench.java); the report also
# goes to target/client_bench/jvm.txt.
#   tests/client_conformance/jvm/bench.sh [CALLS [ROUNDS]]   (default 100000 5)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bash "$here/build.sh" >&2
state="$root/target/client_conformance/jvm"
java="$(cat "$state/java")"
lib="$root/target/toolchains/jvm-lib"
mkdir -p "$state/bench"
"$(dirname "$java")/javac" --release 17 -Xlint:all -Werror -proc:none -encoding UTF-8 \
  -cp "$state/classes:$lib/*" -d "$state/bench" "$here/Bench.java"
export BENCH_ECHO="$root/tests/client_conformance/echo_coprocess.py"
mkdir -p "$root/target/client_bench"
"$java" -XX:+UseSerialGC -cp "$state/bench:$state/classes:$lib/*" Bench "$@" | tee "$root/target/client_bench/jvm.txt"
