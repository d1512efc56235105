#!/usr/bin/env bash
# Benchmarks the generated strict decoder of the constrained frame (`Turn`,
# codegen/tests/schemas/constraints.json) against plain json.loads.
#   tests/conformance/python/bench-constrained.sh [OUTPUT_ROOT]
#     (default: codegen/tests/golden/constraints, the committed golden output;
#     generated/ has no constrained type)
# The python build.sh found (run build.sh first); build.sh checks the goldens.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/conformance/python"
out="${1:-codegen/tests/golden/constraints}"
case "$out" in /*) ;; *) out="$root/$out" ;; esac
[ -f "$out/python/mcptest/_coprocess.py" ] || { echo "error: $out/python/mcptest/_coprocess.py does not exist" >&2; exit 1; }
python="$(cat "$state/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$out/python${PYTHONPATH:+:$PYTHONPATH}"
exec "$python" "$here/bench_constrained.py"
