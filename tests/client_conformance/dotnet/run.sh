#!/usr/bin/env bash
# Runs the .NET client testee (see Testee.cs); build.sh first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/dotnet"
[ -f "$state/testee.dll" ] || { echo "error: run tests/client_conformance/dotnet/build.sh first" >&2; exit 1; }
# shellcheck source=/dev/null
. "$state/env.sh"
exec "$DOTNET" "$state/testee.dll"
