#!/usr/bin/env bash
# Runs the Python client testee (see testee.py); build.sh first.
# `run.sh renamed`: the renamed contract's (build.sh with CLIENT_RENAMED).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/python"
out="$(cat "$state/output_root" 2>/dev/null || echo "$root/generated")"
testee="$here/testee.py"
if [ "${1:-}" = renamed ]; then
  renamed="$(cat "$state/renamed" 2>/dev/null)"
  [ -n "$renamed" ] || { echo "error: run build.sh with CLIENT_RENAMED first" >&2; exit 1; }
  out="$renamed/generated"
  testee="$renamed/tests/client_conformance/python/testee.py"
fi
python="$(cat "$state/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$out/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
exec "$python" "$testee"
