#!/usr/bin/env bash
# The Python session client's speed: calls per second through the generated
# client next to a raw write-a-line/read-a-line loop, and peak memory.
#   tests/client_conformance/python/bench.sh [CALLS]   (default 100000)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
python="$(cat "$root/target/client_conformance/python/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$root/generated/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
exec "$python" "$here/bench.py" "$@"
