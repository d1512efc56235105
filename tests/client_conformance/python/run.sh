#!/usr/bin/env bash
# Runs the Python client testee (see testee.py); build.sh first.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/python"
out="$(cat "$state/output_root" 2>/dev/null || echo "$root/generated")"
python="$(cat "$state/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$out/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
exec "$python" "$here/testee.py"
