#!/usr/bin/env bash
# Builds the .NET end-to-end client: Client.cs with the generated Coprocess.cs and CoprocessClient.cs,
# compiled by Roslyn (C# 8, nullable, warnings as errors) against the
# netcoreapp3.1 reference assemblies of the .NET SDK that
# tests/conformance/dotnet/build.sh finds or installs and records in
# target/conformance/dotnet/env.sh (that script is run only when the record is
# missing). Skipped when the sources are unchanged. Exit 0 ok, 1 failed,
# 3 toolchain missing (1 with CI=true).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
recorded="$root/target/conformance/dotnet/env.sh"
out="$root/target/e2e/dotnet"

if [ ! -f "$recorded" ] || ! (. "$recorded" && [ -x "$DOTNET" ]); then
  CONFORMANCE_TOOLCHAIN_ONLY=1 bash "$root/tests/conformance/dotnet/build.sh" generated # exits 3 (or 1 in CI) when no toolchain
fi
# shellcheck source=/dev/null
. "$recorded"
host="$(dirname "$DOTNET")"
csc="$(ls "$host"/sdk/*/Roslyn/bincore/csc.dll | sort -V | tail -n 1)"
ref_dir="$(ls -d "$host"/packs/Microsoft.NETCore.App.Ref/3.1.*/ref/netcoreapp3.1 | sort -V | tail -n 1)"
sources=("$root/generated/dotnet/src/Mcptest.Sdk/Coprocess.cs" "$root/generated/dotnet/src/Mcptest.Sdk/CoprocessClient.cs" "$here/Client.cs")
mkdir -p "$out"
cp "$recorded" "$out/env.sh"
key="$( (sha256sum "${sources[@]}" "$here/build.sh"; echo "$csc $ref_dir") | sha256sum | cut -d' ' -f1)"
if [ -f "$out/client.dll" ] && [ "$(cat "$out/.build.sha256" 2>/dev/null)" = "$key" ]; then
  echo "dotnet: e2e client up to date" >&2
  exit 0
fi
refs=()
for dll in "$ref_dir"/*.dll; do refs+=("-r:$dll"); done
"$DOTNET" "$csc" -nologo -noconfig -nostdlib -langversion:8.0 -nullable:enable -warn:4 -warnaserror \
  -deterministic -shared -keepalive:60 "${refs[@]}" -target:exe -out:"$out/client.dll" "${sources[@]}"
cat >"$out/client.runtimeconfig.json" <<JSON
{"runtimeOptions":{"tfm":"netcoreapp3.1","framework":{"name":"Microsoft.NETCore.App","version":"3.1.0"},"configProperties":{"System.Globalization.Invariant":true}}}
JSON
echo "$key" >"$out/.build.sha256"
echo "dotnet: e2e client built at ${out#"$root"/}/client.dll" >&2
