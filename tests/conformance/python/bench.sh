#!/usr/bin/env bash
# Benchmarks the generated strict decoders against plain json.loads.
#   tests/conformance/python/bench.sh [OUTPUT_ROOT]   (default: the one build.sh checked)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/conformance/python"
out="${1:-${OUTPUT_ROOT:-$(cat "$state/output_root" 2>/dev/null || echo generated)}}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
python="$(cat "$state/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$out/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" "$here/bench.py"
