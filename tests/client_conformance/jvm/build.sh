#!/usr/bin/env bash
# Prepares the JVM client testee: a JDK >= 17 and the pinned Jackson jars (as
# tests/conformance/jvm/build.sh finds or installs them; that script is run only
# when they are not there yet), then compiles <OUTPUT_ROOT>/jvm/.../Coprocess.java,
# its session client CoprocessClient.java and Testee.java with the strict javac
# flags into target/client_conformance/jvm/classes (skipped when nothing changed).
# The strict checks of the client itself (Error Prone, google-java-format) run
# in tests/conformance/jvm/build.sh. With CLIENT_RENAMED (the renamed contract's
# tree, tests/client_conformance/renamed.rs) its client and rewritten Testee.java
# are compiled by the same javac run, moved to the packages dev.mcptest.renamed
# and renamed (only the package lines differ), for `run.sh renamed`. Exit 0 when
# ready, 3 (1 when CI=true) when no toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-${OUTPUT_ROOT:-generated}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
lib="$root/target/toolchains/jvm-lib"
state="$root/target/client_conformance/jvm"
mkdir -p "$state"

find_javac() {
  local candidate
  for candidate in "$(command -v javac || true)" "$root/target/toolchains/jdk/bin/javac"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then
      local bin major
      bin="$(dirname "$(readlink -f "$candidate")")"
      major="$("$bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\)[."].*/\1/p' | head -n1)"
      if [ "${major:-0}" -ge 17 ]; then
        echo "$bin"
        return 0
      fi
    fi
  done
  return 1
}
java_bin="$(find_javac || true)"
if [ -z "$java_bin" ] || ! ls "$lib"/jackson-databind-*.jar >/dev/null 2>&1; then
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$root/tests/conformance/jvm/build.sh" "$out" >&2 # exits 3 (or 1 in CI) when no toolchain
  java_bin="$(find_javac)"
fi
java_dir="$out/jvm/src/main/java/dev/mcptest"
for file in Coprocess.java CoprocessClient.java; do
  [ -f "$java_dir/$file" ] || { echo "no $java_dir/$file (cargo run -p codegen)" >&2; exit 1; }
done
cp_jars="$(ls "$lib"/*.jar | tr '\n' ':')"
sources=("$java_dir/Coprocess.java" "$java_dir/CoprocessClient.java" "$here/Testee.java")
if [ -n "${CLIENT_RENAMED:-}" ]; then
  moved="$state/renamed-src"
  rm -rf "$moved" && mkdir -p "$moved"
  for file in Coprocess.java CoprocessClient.java; do
    sed 's/^package dev\.mcptest;$/package dev.mcptest.renamed;/' \
      "$CLIENT_RENAMED/generated/jvm/src/main/java/dev/mcptest/$file" >"$moved/$file"
  done
  sed -e 's/^import dev\.mcptest\./import dev.mcptest.renamed./' -e '0,/^import /s//package renamed;\n\nimport /' \
    "$CLIENT_RENAMED/tests/client_conformance/jvm/Testee.java" >"$moved/Testee.java"
  sources+=("$moved/Coprocess.java" "$moved/CoprocessClient.java" "$moved/Testee.java")
fi
key="$( (sha256sum "${sources[@]}" "$lib"/*.jar "$here/build.sh"; "$java_bin/javac" -version 2>&1) | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$state/classes/.build.sha256" 2>/dev/null)" = "$key" ]; then
  echo "jvm: client testee up to date" >&2
else
  rm -rf "$state/classes" && mkdir -p "$state/classes"
  # C1 only and one collector thread, as for every build tool here
  # (tests/conformance/jvm/jdk.sh, JVM_TOOL_FLAGS).
  "$java_bin/javac" -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC --release 17 -Xlint:all -Werror -proc:none -encoding UTF-8 \
    -cp "$cp_jars" -d "$state/classes" "${sources[@]}"
  echo "$key" >"$state/classes/.build.sha256"
  echo "jvm: client testee built at ${state#"$root"/}/classes" >&2
fi
echo "$java_bin/java" >"$state/java"
