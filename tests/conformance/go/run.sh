#!/usr/bin/env bash
# Runs the Go conformance testee built by build.sh: NDJSON cases on stdin,
# one answer line per case on stdout.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
TESTEE="${CONFORMANCE_BUILD:-$ROOT/target/conformance/go}/testee"
if [ ! -x "$TESTEE" ]; then
  echo "error: $TESTEE is missing; run tests/conformance/go/build.sh first" >&2
  exit 1
fi
exec "$TESTEE"
