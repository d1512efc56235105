#!/usr/bin/env bash
# The .NET session client's own CPU per call next to a raw write-a-line/
# read-a-line loop's, and its resident set (see Bench.cs); the report also
# goes to target/client_bench/dotnet.txt.
#   tests/client_conformance/dotnet/bench.sh [CALLS [ROUNDS]]   (default 100000 5)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/dotnet"
bash "$here/build.sh" >/dev/null
# shellcheck source=/dev/null
. "$state/env.sh"
host="$(dirname "$DOTNET")"
csc="$(ls "$host"/sdk/*/Roslyn/bincore/csc.dll | sort -V | tail -n 1)"
ref_dir="$(ls -d "$host"/packs/Microsoft.NETCore.App.Ref/3.1.*/ref/netcoreapp3.1 | sort -V | tail -n 1)"
refs=()
for dll in "$ref_dir"/*.dll; do refs+=("-r:$dll"); done
"$DOTNET" "$csc" -nologo -noconfig -nostdlib -langversion:8.0 -nullable:enable -warn:4 -warnaserror -optimize+ \
  "${refs[@]}" -target:exe -out:"$state/bench.dll" "$here/Bench.cs" \
  "$root/generated/dotnet/src/Mcptest.Sdk/Coprocess.cs" "$root/generated/dotnet/src/Mcptest.Sdk/CoprocessClient.cs"
cp "$state/testee.runtimeconfig.json" "$state/bench.runtimeconfig.json"
mkdir -p "$root/target/client_bench"
# The runtime waits to count calls towards a method's optimized code (tier 1) until no method was
# compiled for the first time for this long (100 ms by default); each round's new sessions kept
# restarting that wait, and the client ran its first, unoptimized code into the measured rounds
# (for 11 s of a 14 s run). Counting at once lets the warm-up reach the steady state the rounds
# measure (see Bench.cs's Main).
export COMPlus_TC_CallCountingDelayMs=0
"$DOTNET" "$state/bench.dll" "$root/tests/client_conformance/echo_coprocess.py" "$@" | tee "$root/target/client_bench/dotnet.txt"
