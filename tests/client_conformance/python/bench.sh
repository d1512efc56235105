#!/usr/bin/env bash
# The Python session client's own CPU per call next to a raw write-a-line/
# read-a-line loop's, and its resident set (see bench.py); the report also
# goes to target/client_bench/python.txt.
#   tests/client_conformance/python/bench.sh [CALLS [ROUNDS]]   (default 100000 5)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
python="$(cat "$root/target/client_conformance/python/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$root/generated/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
mkdir -p "$root/target/client_bench"
"$python" "$here/bench.py" "$@" | tee "$root/target/client_bench/python.txt"
