#!/usr/bin/env bash
# Checks that Java files are exactly what the pinned google-java-format prints
# with --aosp (four-space indent; version in tools/google-java-format/pom.xml).
#   tests/conformance/jvm/format-check.sh FILE...
# Exit 0 when every file is google-java-format's output; 1 with a unified diff
# of what it would change in each file that is not; 3 (1 when CI=true) when no
# JDK >= 17 or no google-java-format can be had. Copies the pinned jar and its
# dependencies from Maven Central (mvn dependency:copy-dependencies) into
# target/toolchains/google-java-format-<version> when missing.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
TOOLS="$ROOT/target/toolchains"
MAVEN_VERSION="3.9.9"
. "$HERE/../../toolchain.sh"
. "$HERE/jdk.sh"

find_jdk || { install_jdk && find_jdk; } || missing "a JDK >= 17 (java); install openjdk-17-jdk-headless"
VERSION="$(sed -n '/<artifactId>google-java-format<\/artifactId>/{n;s/.*<version>\(.*\)<\/version>.*/\1/p}' "$HERE/tools/google-java-format/pom.xml")"
LIB="$TOOLS/google-java-format-$VERSION"
if [ ! -f "$LIB/google-java-format-$VERSION.jar" ]; then
    find_maven || missing "Maven (not on PATH and Maven Central unreachable)"
    rm -rf "$LIB"
    JAVA_HOME="$(dirname "$JAVA_BIN")" "$MVN" -q -B -f "$HERE/tools/google-java-format/pom.xml" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$LIB" >&2 \
        || { rm -rf "$LIB"; missing "google-java-format $VERSION from Maven Central (mvn dependency:copy-dependencies failed)"; }
fi

# google-java-format uses javac's internals: JDK 17 keeps them closed unless exported.
EXPORTS=()
for package in api code file parser tree util; do
    EXPORTS+=("--add-exports=jdk.compiler/com.sun.tools.javac.$package=ALL-UNNAMED")
done

GJF=("$JAVA_BIN/java" "${JVM_TOOL_FLAGS[@]}" "${EXPORTS[@]}" -cp "$LIB/*" com.google.googlejavaformat.java.Main --aosp)
each() { # FILE...: each file's diff from a run of its own
    local file status=0
    for file in "$@"; do
        prints_as google-java-format "google-java-format $VERSION --aosp" "$file" "${GJF[@]}" - || status=1
    done
    return "$status"
}
# One JVM for every file (a start costs about a second of CPU): --dry-run
# lists the files the formatter would change, and only those are run again,
# one by one, for their diffs. A file it cannot read fails the listing: then
# every file is run alone, so that the error names it.
if ! changed="$("${GJF[@]}" --dry-run "$@")"; then
    each "$@"
    exit 1
fi
[ -z "$changed" ] && exit 0
mapfile -t files <<<"$changed"
each "${files[@]}"
exit 1
