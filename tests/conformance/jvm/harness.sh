# Sourced by the JVM bench scripts that compile a harness with a generated
# Coprocess.java (bench-constrained.sh, bench-patterns.sh):
# `compile_harness NAME FILE...` compiles the files (javac --release 17
# -Xlint:all -Werror, Jackson from target/toolchains/jvm-lib) into a fresh
# target/conformance/jvm/NAME; then JAVA runs a class of it with
# `-cp "$HARNESS:$LIB/*"`. Uses the JDK on PATH, else
# target/toolchains/jdk. Needs ROOT set; sets LIB, JAVA and HARNESS.
LIB="$ROOT/target/toolchains/jvm-lib"
JAVAC="javac"
JAVA="java"
if ! command -v javac >/dev/null; then
    JAVAC="$ROOT/target/toolchains/jdk/bin/javac"
    JAVA="$ROOT/target/toolchains/jdk/bin/java"
fi
compile_harness() {
    HARNESS="$ROOT/target/conformance/jvm/$1"
    shift
    rm -rf "$HARNESS"
    mkdir -p "$HARNESS"
    "$JAVAC" --release 17 -Xlint:all -Werror -proc:none -encoding UTF-8 -cp "$LIB/*" -d "$HARNESS" "$@" >&2
}
