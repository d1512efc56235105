#!/usr/bin/env bash
# The TypeScript session client's speed: calls per second through the
# generated client next to a raw write-a-line/read-a-line loop, and peak memory.
#   tests/client_conformance/typescript/bench.sh [CALLS]   (default 100000)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bash "$here/build.sh" >/dev/null
CLIENT_ROOT="$root" exec node "$root/target/client_conformance/typescript/dist/bench.js" "$@"
