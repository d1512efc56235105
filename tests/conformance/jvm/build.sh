#!/usr/bin/env bash
# Builds the JVM conformance testee.
#   tests/conformance/jvm/build.sh [OUTPUT_ROOT]     (default OUTPUT_ROOT: generated)
# 1. Finds a JDK >= 17 (PATH first, then target/toolchains/jdk, then apt) and
#    Maven (PATH first, else the binary distribution from Maven Central under
#    target/toolchains/maven); copies the pinned Jackson jars of pom.xml into
#    target/toolchains/jvm-lib.
# 2. Compiles <OUTPUT_ROOT>/jvm/.../Coprocess.java with its session client
#    CoprocessClient.java, and every golden copy of the two under
#    codegen/tests/golden/*/ with `javac --release 17 -Xlint:all
#    -Xdoclint:all/protected -Werror` (every lint and public-Javadoc problem fails)
#    and Error Prone as its plugin in the same compile (pinned in
#    tools/error-prone/pom.xml, default checks, -Werror): no finding, UnusedMethod
#    included. Compiles codegen/src/targets/jvm/Runtime.java (the runtime as
#    written) with javac's checks.
#    ClientRuntime.java (the client's runtime) names the role types by placeholders
#    that codegen fills, so it is compiled and Error-Prone-checked as rendered, in
#    every CoprocessClient.java above, not as written.
# 3. Checks the files, every golden and Runtime.java with the pinned
#    google-java-format --aosp (format-check.sh; tools/google-java-format/pom.xml pins it).
# 4. Compiles Testee.java against the generated file into $CONFORMANCE_BUILD (default target/conformance/jvm).
# With CONFORMANCE_TOOLCHAIN_ONLY=1, step 1 only.
# Exit 0 on success; 3 (or 1 with CI=true) when a toolchain cannot be had.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
# The goldens checked beside OUTPUT_ROOT (the proof round points this at a
# folder linking every golden and generated/, so one run of each tool covers them).
GOLDENS="${CONFORMANCE_GOLDENS:-$ROOT/codegen/tests/golden}"
OUTPUT_ROOT="${1:-generated}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
REL="jvm/src/main/java/dev/mcptest/Coprocess.java"
CLIENT_REL="jvm/src/main/java/dev/mcptest/CoprocessClient.java"
TOOLS="$ROOT/target/toolchains"
LIB="$TOOLS/jvm-lib"
BUILD="${CONFORMANCE_BUILD:-$ROOT/target/conformance/jvm}"
MAVEN_VERSION="3.9.9"

# missing, apt_install
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"
# find_jdk, install_jdk, find_maven
. "$HERE/jdk.sh"

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
    "$JAVA_BIN/javac" "${JAVAC_TOOL_FLAGS[@]}" "${STRICT[@]}" -cp "$classpath" -d "$out" "$@"
    echo "$key" >"$stamp"
}

# Error Prone (pinned in tools/error-prone/pom.xml) into target/toolchains/error-prone-<version>.
fetch_error_prone() {
    local pom="$HERE/tools/error-prone/pom.xml" version
    version="$(sed -n '/<artifactId>error_prone_core<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p}' "$pom")"
    EP_LIB="$TOOLS/error-prone-$version"
    [ -f "$EP_LIB/error_prone_core-$version.jar" ] && return 0
    find_maven || missing "Maven (not on PATH and Maven Central unreachable)"
    rm -rf "$EP_LIB"
    JAVA_HOME="$(dirname "$JAVA_BIN")" "$MVN" -q -B -f "$pom" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$EP_LIB" >&2 \
        || { rm -rf "$EP_LIB"; missing "Error Prone $version from Maven Central (mvn dependency:copy-dependencies failed)"; }
}

# Error Prone's default checks as a javac plugin, every warning an error. On
# JDK 17 the plugin needs javac's internals exported and opened (as Error
# Prone's installation notes say).
# It compiles as javac does (the strict flags above too): the classes go to
# <out dir> (the goldens' to a throwaway one), so that nothing is compiled twice.
error_prone() { # error_prone <name> <classpath> <out dir> <sources...>
    local name="$1" classpath="$2" out="$3"
    shift 3
    local stamp="$BUILD/error-prone/$name.sha256"
    if [ -d "$out" ] && checked_before "$stamp" "$@" "$LIB"/*.jar "$HERE/tools/error-prone/pom.xml"; then
        echo "jvm: Error Prone $name up to date" >&2
        return 0
    fi
    local flags=(-XDcompilePolicy=simple --should-stop=ifError=FLOW -Xplugin:ErrorProne)
    for package in api file main model parser processing tree util; do
        flags+=("-J--add-exports=jdk.compiler/com.sun.tools.javac.$package=ALL-UNNAMED")
    done
    for package in code comp; do
        flags+=("-J--add-opens=jdk.compiler/com.sun.tools.javac.$package=ALL-UNNAMED")
    done
    rm -rf "$out"
    mkdir -p "$out"
    echo "jvm: Error Prone $name" >&2
    "$JAVA_BIN/javac" "${JAVAC_TOOL_FLAGS[@]}" "${STRICT[@]}" "${flags[@]}" -processorpath "$(ls "$EP_LIB"/*.jar | tr '\n' ':')" \
        -cp "$classpath" -d "$out" "$@"
    mark_checked "$stamp" "$@" "$LIB"/*.jar "$HERE/tools/error-prone/pom.xml"
}

find_jdk || { install_jdk && find_jdk; } || missing "a JDK >= 17 (javac); install openjdk-17-jdk-headless"
fetch_jackson
# CONFORMANCE_TOOLCHAIN_ONLY=1 (the client testee's build): the JDK and the
# Jackson jars only, no check (the proof round checks generated/ and every
# golden, the clients among them).
[ -z "${CONFORMANCE_TOOLCHAIN_ONLY:-}" ] || { echo "jvm: JDK and Jackson ready" >&2; exit 0; }
fetch_error_prone
CP="$(ls "$LIB"/*.jar | tr '\n' ':')"

GENERATED="$OUTPUT_ROOT/$REL"
[ -f "$GENERATED" ] || { echo "error: $GENERATED not found; run \`cargo run -p codegen -- --out ${1:-generated}\` first" >&2; exit 1; }

GENERATED_CLIENT="$OUTPUT_ROOT/$CLIENT_REL"
[ -f "$GENERATED_CLIENT" ] || { echo "error: $GENERATED_CLIENT not found; run \`cargo run -p codegen -- --out ${1:-generated}\` first" >&2; exit 1; }

# The frames file and its session client, compiled together (golden_sources <golden dir>).
golden_sources() {
    echo "$1$REL"
    [ -f "$1$CLIENT_REL" ] && echo "$1$CLIENT_REL"
    return 0
}
for golden in "$GOLDENS"/*/; do
    [ -f "$golden$REL" ] || continue
    mapfile -t sources < <(golden_sources "$golden")
    error_prone "golden-$(basename "$golden")" "$CP" "$BUILD/error-prone/classes" "${sources[@]}"
done
# The generated file's classes are the testee's.
error_prone "generated" "$CP" "$BUILD/classes" "$GENERATED" "$GENERATED_CLIENT"
# The runtime as written, a class of its own (codegen splices its members into Coprocess).
RUNTIME="$ROOT/codegen/src/targets/jvm/Runtime.java"
compile "Runtime.java" "$CP" "$BUILD/runtime" "$RUNTIME"
# The client's runtime (client.rs splices its members into CoprocessClient) names the
# contract's role types by placeholders (Coprocess.RoleRequest, ...) that client.rs fills
# with the contract's names: as written it is no Java javac can compile, and its Javadoc
# is laid out for the names it renders to, not for the placeholders (which google-java-format
# would reflow). So javac, Error Prone and google-java-format check it as rendered, in every
# CoprocessClient.java here, not as written.

# google-java-format --aosp (pinned in tools/google-java-format/pom.xml): the file, every golden
# and the runtime must be exactly what it prints.
FORMATTED=("$GENERATED" "$GENERATED_CLIENT")
for golden in "$GOLDENS"/*/; do
    [ -f "$golden$REL" ] && FORMATTED+=("$golden$REL")
    [ -f "$golden$CLIENT_REL" ] && FORMATTED+=("$golden$CLIENT_REL")
done
FORMATTED+=("$RUNTIME")
if checked_before "$BUILD/format.sha256" "${FORMATTED[@]}" "$HERE/format-check.sh" "$HERE/tools/google-java-format/pom.xml"; then
    echo "jvm: google-java-format check up to date" >&2
else
    echo "jvm: google-java-format --aosp --check (${#FORMATTED[@]} files)" >&2
    bash "$HERE/format-check.sh" "${FORMATTED[@]}"
    mark_checked "$BUILD/format.sha256" "${FORMATTED[@]}" "$HERE/format-check.sh" "$HERE/tools/google-java-format/pom.xml"
fi
compile "Testee.java" "$CP$BUILD/classes" "$BUILD/testee" "$HERE/Testee.java"
echo "jvm: built $BUILD/testee" >&2
