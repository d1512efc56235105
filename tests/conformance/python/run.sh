#!/usr/bin/env bash
# Runs the Python conformance testee: NDJSON cases on stdin, answers on stdout.
#   tests/conformance/python/run.sh [OUTPUT_ROOT]
# OUTPUT_ROOT defaults to the one build.sh last checked (else `generated`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="${CONFORMANCE_BUILD:-$root/target/conformance/python}"
out="${1:-${OUTPUT_ROOT:-$(cat "$state/output_root" 2>/dev/null || echo generated)}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
python="$(cat "$state/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$out/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
exec "$python" "$here/testee.py"
