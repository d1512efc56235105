#!/usr/bin/env bash
# Issue 36's pattern benchmark through the generated Go decoders: each probe
# of PROBES decoded by its probe type's decoder, the best of REPEATS decodes;
# one line per probe, `<number>\t<ms>\t<1 decoded, 0 refused>\t<ms as
# PatternProbePlain, the same frame without a pattern>`
# (tests/conformance/bench-patterns.sh runs it and reads the lines).
#
#   tests/conformance/go/bench-patterns.sh OUTPUT_ROOT PROBES [REPEATS]
#
# Uses the Go build.sh finds; checks bench-patterns/main.go with gofmt and go
# vet, then builds it with OUTPUT_ROOT's coprocess.go (harness.sh) and runs it.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT_ROOT PROBES [REPEATS]" >&2; exit 2; }
[ -f "$1/go/coprocess.go" ] || { echo "error: $1/go/coprocess.go does not exist" >&2; exit 1; }

# shellcheck source=harness.sh
. "$HERE/harness.sh"
BENCH="$(build_harness bench-patterns "$HERE/bench-patterns/main.go" "$1")"
exec "$BENCH" "$2" "${3:-3}"
