#!/usr/bin/env bash
# The TypeScript session client's own CPU per call next to a raw
# write-a-line/read-a-line loop's, and its resident set (see bench.ts); the
# report also goes to target/client_bench/typescript.txt.
#   tests/client_conformance/typescript/bench.sh [CALLS [ROUNDS]]   (default 100000 5)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
bash "$here/build.sh" >/dev/null
mkdir -p "$root/target/client_bench"
CLIENT_ROOT="$root" node "$root/target/client_conformance/typescript/dist/bench.js" "$@" | tee "$root/target/client_bench/typescript.txt"
