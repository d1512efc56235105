#!/usr/bin/env bash
# Runs the .NET testee built by build.sh: NDJSON cases on stdin, answers on stdout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BUILD="${CONFORMANCE_BUILD:-$ROOT/target/conformance/dotnet}"
[ -f "$BUILD/testee.dll" ] || { echo "error: run tests/conformance/dotnet/build.sh first" >&2; exit 1; }
# shellcheck source=/dev/null
. "$BUILD/env.sh"
exec "$DOTNET" "$BUILD/testee.dll"
