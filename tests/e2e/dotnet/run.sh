#!/usr/bin/env bash
# Runs the .NET end-to-end client (see tests/e2e.rs for its environment).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out="$root/target/e2e/dotnet"
# shellcheck source=/dev/null
. "$out/env.sh"
exec "$DOTNET" "$out/client.dll"
