#!/usr/bin/env bash
# Prepares the .NET client testee: the .NET Core 3.1 toolchain that
# tests/conformance/dotnet/build.sh finds or installs (and records in
# target/conformance/dotnet/env.sh; that script runs, with
# CONFORMANCE_TOOLCHAIN_ONLY=1, when the record is missing: the strict checks
# of CoprocessClient.cs are the proof round's), then Testee.cs compiled with
# the generated Coprocess.cs and CoprocessClient.cs under <OUTPUT_ROOT>
# (default: generated) by Roslyn (C# 8, nullable, warnings as errors). With
# CLIENT_RENAMED (the renamed contract's tree, tests/client_conformance/
# renamed.rs) its client and rewritten Testee.cs are compiled too, into
# testee-renamed.dll (`run.sh renamed`): a second csc run, as csc writes one
# assembly per run and the two declare the same names.
# Exit 0 when ready, 3 (1 when CI=true) when no toolchain.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="${1:-${OUTPUT_ROOT:-generated}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
state="$root/target/client_conformance/dotnet"
recorded="$root/target/conformance/dotnet/env.sh"

if [ ! -f "$recorded" ] || ! (. "$recorded" && [ -x "$DOTNET" ]); then
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$root/tests/conformance/dotnet/build.sh" "$out" # exits 3 (or 1 in CI) when no toolchain
fi
# shellcheck source=/dev/null
. "$recorded"
host="$(dirname "$DOTNET")"
csc="$(ls "$host"/sdk/*/Roslyn/bincore/csc.dll | sort -V | tail -n 1)"
ref_dir="$(ls -d "$host"/packs/Microsoft.NETCore.App.Ref/3.1.*/ref/netcoreapp3.1 | sort -V | tail -n 1)"
sources=("$out/dotnet/src/Mcptest.Sdk/Coprocess.cs" "$out/dotnet/src/Mcptest.Sdk/CoprocessClient.cs" "$here/Testee.cs")
renamed=()
if [ -n "${CLIENT_RENAMED:-}" ]; then
  renamed=("$CLIENT_RENAMED/generated/dotnet/src/Mcptest.Sdk/Coprocess.cs"
    "$CLIENT_RENAMED/generated/dotnet/src/Mcptest.Sdk/CoprocessClient.cs"
    "$CLIENT_RENAMED/tests/client_conformance/dotnet/Testee.cs")
fi
for file in "${sources[@]}" "${renamed[@]}"; do
  [ -f "$file" ] || { echo "no $file (cargo run -p codegen)" >&2; exit 1; }
done
mkdir -p "$state"
cp "$recorded" "$state/env.sh"
key="$( (sha256sum "${sources[@]}" "${renamed[@]}" "$here/Bench.cs" "$here/build.sh"; echo "$csc $ref_dir") | sha256sum | cut -d' ' -f1)"
if [ -f "$state/testee.dll" ] && [ "$(cat "$state/.build.sha256" 2>/dev/null)" = "$key" ]; then
  echo "dotnet: client testee up to date" >&2
  exit 0
fi
bash "$root/tests/conformance/dotnet/format-check.sh" "$here/Testee.cs" "$here/Bench.cs" ||
  { echo "error: C# layout conventions broken (above)" >&2; exit 1; }
refs=()
for dll in "$ref_dir"/*.dll; do refs+=("-r:$dll"); done
compile() {
  local dll="$1"
  shift
  "$DOTNET" "$csc" -nologo -noconfig -nostdlib -langversion:8.0 -nullable:enable -warn:4 -warnaserror \
    -deterministic -shared -keepalive:60 -optimize+ "${refs[@]}" -target:exe -out:"$state/$dll.dll" "$@"
  cat >"$state/$dll.runtimeconfig.json" <<JSON
{"runtimeOptions":{"tfm":"netcoreapp3.1","framework":{"name":"Microsoft.NETCore.App","version":"3.1.0"},"configProperties":{"System.Globalization.Invariant":true}}}
JSON
}
compile testee "${sources[@]}"
[ ${#renamed[@]} -eq 0 ] || compile testee-renamed "${renamed[@]}"
echo "$key" >"$state/.build.sha256"
echo "dotnet: client testee built at ${state#"$root"/}/testee.dll" >&2
