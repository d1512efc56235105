#!/usr/bin/env bash
# Builds the JVM end-to-end client: Client.java with the generated
# Coprocess.java and its session client CoprocessClient.java, against the pinned Jackson jars, with the JDK (>= 17) and the
# jars that tests/conformance/jvm/build.sh finds or installs (that script is
# run only when they are not there yet). Compiled with the same strict javac
# flags (every lint warning is an error) into target/e2e/jvm/classes; skipped
# when the sources and jars are unchanged. Exit 0 ok, 1 failed, 3 toolchain
# missing (1 with CI=true).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
lib="$root/target/toolchains/jvm-lib"
out="$root/target/e2e/jvm"

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
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$root/tests/conformance/jvm/build.sh" generated # exits 3 (or 1 in CI) when no toolchain
  java_bin="$(find_javac)"
fi
cp_jars="$(ls "$lib"/*.jar | tr '\n' ':')"
sources=("$root/generated/jvm/src/main/java/dev/mcptest/Coprocess.java" "$root/generated/jvm/src/main/java/dev/mcptest/CoprocessClient.java" "$here/Client.java")
key="$( (sha256sum "${sources[@]}" "$lib"/*.jar "$here/build.sh"; "$java_bin/javac" -version 2>&1) | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$out/classes/.build.sha256" 2>/dev/null)" = "$key" ]; then
  echo "jvm: e2e client up to date" >&2
else
  rm -rf "$out/classes" && mkdir -p "$out/classes"
  # C1 only and one collector thread, as for every build tool here
  # (tests/conformance/jvm/jdk.sh, JVM_TOOL_FLAGS).
  "$java_bin/javac" -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC --release 17 -Xlint:all -Xdoclint:all/protected -Werror -proc:none -encoding UTF-8 \
    -cp "$cp_jars" -d "$out/classes" "${sources[@]}"
  echo "$key" >"$out/classes/.build.sha256"
  echo "jvm: e2e client built at ${out#"$root"/}/classes" >&2
fi
echo "$java_bin/java" >"$out/java"
