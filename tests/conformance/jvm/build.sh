#!/usr/bin/env bash
# Builds the JVM conformance testee.
#   tests/conformance/jvm/build.sh [OUTPUT_ROOT]     (default OUTPUT_ROOT: generated)
# 1. Finds a JDK >= 17 (PATH first, then target/toolchains/jdk, then apt) and
#    Maven (PATH first, else the binary distribution from Maven Central under
#    target/toolchains/maven); copies the pinned Jackson jars of pom.xml into
#    target/toolchains/jvm-lib.
# 2. Compiles <OUTPUT_ROOT>/jvm/.../Coprocess.java and every golden copy under
#    codegen/tests/golden/*/ with `javac --release 17 -Xlint:all
#    -Xdoclint:all/protected -Werror` (every lint and public-Javadoc problem fails).
# 3. Compiles Testee.java against the generated file into $CONFORMANCE_BUILD (default target/conformance/jvm).
# Exit 0 on success; 3 (or 1 with CI=true) when a toolchain cannot be had.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUTPUT_ROOT="${1:-generated}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
REL="jvm/src/main/java/dev/mcptest/Coprocess.java"
TOOLS="$ROOT/target/toolchains"
LIB="$TOOLS/jvm-lib"
BUILD="${CONFORMANCE_BUILD:-$ROOT/target/conformance/jvm}"
MAVEN_VERSION="3.9.9"

# missing, apt_install
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"

java_major() { # prints the major version of the given java binary, or 0
    "$1" -version 2>&1 | sed -n 's/.*version "\([0-9]*\)[."].*/\1/p' | head -n1 | grep . || echo 0
}

find_jdk() {
    local candidate
    for candidate in "$(command -v javac || true)" "$TOOLS/jdk/bin/javac"; do
        if [ -n "$candidate" ] && [ -x "$candidate" ]; then
            local bin
            bin="$(dirname "$(readlink -f "$candidate")")"
            if [ -x "$bin/java" ] && [ "$(java_major "$bin/java")" -ge 17 ]; then
                JAVA_BIN="$bin"
                return 0
            fi
        fi
    done
    return 1
}


install_jdk() { # Debian 12 has 17; later releases only newer JDKs, which --release 17 accepts
    apt_install openjdk-17-jdk-headless || apt_install default-jdk-headless
}

find_maven() {
    if command -v mvn >/dev/null; then
        MVN="$(command -v mvn)"
    elif [ -x "$TOOLS/maven/bin/mvn" ]; then
        MVN="$TOOLS/maven/bin/mvn"
    else
        local url="https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/$MAVEN_VERSION/apache-maven-$MAVEN_VERSION-bin.tar.gz"
        echo "jvm: fetching Maven $MAVEN_VERSION from Maven Central" >&2
        mkdir -p "$TOOLS/maven"
        if command -v curl >/dev/null && curl -fsSL "$url" | tar -xz -C "$TOOLS/maven" --strip-components=1; then
            MVN="$TOOLS/maven/bin/mvn"
        else
            rm -rf "$TOOLS/maven"
            apt_install maven && MVN="$(command -v mvn)" || return 1
        fi
    fi
}

fetch_jackson() {
    local stamp="$LIB/.pom.sha256" want
    want="$(sha256sum "$HERE/pom.xml" | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
        return 0
    fi
    find_maven || missing "Maven (not on PATH and Maven Central unreachable)"
    rm -rf "$LIB"
    JAVA_HOME="$(dirname "$JAVA_BIN")" "$MVN" -q -B -f "$HERE/pom.xml" dependency:copy-dependencies \
        -DoutputDirectory="$LIB" >&2 || missing "Jackson jars from Maven Central (mvn dependency:copy-dependencies failed)"
    echo "$want" >"$stamp"
}

# The strict checks: every lint warning and every Javadoc problem of the
# public API is an error.
STRICT=(--release 17 -Xlint:all -Xdoclint:all/protected -Werror -proc:none -encoding UTF-8)

# Compiles sources into a class directory unless an identical build is there.
compile() { # compile <name> <classpath> <out dir> <sources...>
    local name="$1" classpath="$2" out="$3"
    shift 3
    local key stamp="$out/.build.sha256"
    key="$( (sha256sum "$@" "$LIB"/*.jar "$HERE/build.sh"; echo "$classpath") | sha256sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
        echo "jvm: $name up to date" >&2
        return 0
    fi
    rm -rf "$out"
    mkdir -p "$out"
    echo "jvm: javac $name" >&2
    "$JAVA_BIN/javac" "${STRICT[@]}" -cp "$classpath" -d "$out" "$@"
    echo "$key" >"$stamp"
}

find_jdk || { install_jdk && find_jdk; } || missing "a JDK >= 17 (javac); install openjdk-17-jdk-headless"
fetch_jackson
CP="$(ls "$LIB"/*.jar | tr '\n' ':')"

GENERATED="$OUTPUT_ROOT/$REL"
[ -f "$GENERATED" ] || { echo "error: $GENERATED not found; run \`cargo run -p codegen -- --out ${1:-generated}\` first" >&2; exit 1; }

for golden in "$ROOT"/codegen/tests/golden/*/; do
    [ -f "$golden$REL" ] || continue
    compile "golden $(basename "$golden")" "$CP" "$BUILD/golden/$(basename "$golden")" "$golden$REL"
done
compile "$REL" "$CP" "$BUILD/classes" "$GENERATED"
compile "Testee.java" "$CP$BUILD/classes" "$BUILD/testee" "$HERE/Testee.java"
echo "jvm: built $BUILD/testee" >&2
