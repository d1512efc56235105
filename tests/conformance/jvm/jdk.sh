# Shared by the JVM conformance scripts (`. tests/conformance/jvm/jdk.sh`,
# after tests/toolchain.sh, with TOOLS and MAVEN_VERSION set): find_jdk sets
# JAVA_BIN (a JDK >= 17), find_maven sets MVN.

# The JVM flags of the build tools run here (javac, Error Prone,
# google-java-format): a compile of seconds to a minute costs less CPU in C1's
# code alone than in warming C2 up, and one collector thread does on two
# cores (the names proof's Error Prone compile: 84 -> 46 s of CPU). javac
# takes them as -J flags. Not for the benchmarks, which measure C2's code.
JVM_TOOL_FLAGS=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC)
JAVAC_TOOL_FLAGS=("${JVM_TOOL_FLAGS[@]/#/-J}")

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

