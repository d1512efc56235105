#!/usr/bin/env bash
# Runs the Python end-to-end client (see tests/e2e.rs for its environment).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
python="$(cat "$root/target/e2e/python/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$root/generated/python" PYTHONDONTWRITEBYTECODE=1
exec "$python" "$here/client.py"
