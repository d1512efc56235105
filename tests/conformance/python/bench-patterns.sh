#!/usr/bin/env bash
# Issue 36's pattern benchmark through the generated Python decoders: each
# probe of PROBES decoded by its probe type's decoder, the best of REPEATS
# decodes; one line per probe, `<number>\t<ms>\t<1 decoded, 0 refused>\t<ms as
# PatternProbePlain, the same frame without a pattern>`
# (tests/conformance/bench-patterns.sh runs it and reads the lines).
#
#   tests/conformance/python/bench-patterns.sh OUTPUT_ROOT PROBES [REPEATS]
#
# The python build.sh found (else python3 on PATH).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT_ROOT PROBES [REPEATS]" >&2; exit 2; }
[ -f "$1/python/mcptest/_coprocess.py" ] || { echo "error: $1/python/mcptest/_coprocess.py does not exist" >&2; exit 1; }
python="$(cat "$root/target/conformance/python/python" 2>/dev/null || command -v python3)"
export PYTHONPATH="$1/python${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONDONTWRITEBYTECODE=1
exec "$python" "$here/bench_patterns.py" "$2" "${3:-3}"
