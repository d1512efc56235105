#!/usr/bin/env bash
# Decode throughput of the constrained frame (Turn, codegen/tests/schemas/
# constraints.json) through the generated strict Go decoder vs json.Unmarshal
# into any, one markdown row:
# | go | Turn (constrained) | <strict fr/s> | <plain fr/s> | <ratio plain/strict> |
# usage: tests/conformance/go/bench-constrained.sh [OUTPUT_ROOT]
#   (default OUTPUT_ROOT: codegen/tests/golden/constraints, the committed
#   golden output; generated/ has no constrained type)
# Uses the Go build.sh found (run build.sh first; it checks the goldens);
# checks bench-constrained/main.go with gofmt and go vet, then builds and runs it.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUTPUT_ROOT="${1:-codegen/tests/golden/constraints}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
[ -f "$OUTPUT_ROOT/go/coprocess.go" ] || { echo "error: $OUTPUT_ROOT/go/coprocess.go does not exist" >&2; exit 1; }

WORK="$ROOT/target/conformance/go"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod GOPATH="$ROOT/target/toolchains/gopath" GOCACHE="${GOCACHE_OVERRIDE:-$ROOT/target/go-cache}"
GO="$(command -v go || true)"
[ -n "$GO" ] || GO="$(ls "$ROOT"/target/toolchains/go-*/bin/go | head -n 1)"
GOFMT="$(dirname "$GO")/gofmt"
[ -x "$GOFMT" ] || GOFMT="$("$GO" env GOROOT)/bin/gofmt"
BENCH="$HERE/bench-constrained/main.go"
if [ -n "$("$GOFMT" -l "$BENCH")" ]; then
  echo "FAIL ${BENCH#"$ROOT"/}: not gofmt-clean" >&2
  exit 1
fi
SRC="$WORK/bench-constrained-src"
rm -rf "$SRC" && mkdir -p "$SRC/mcptest"
printf 'module mcptest.local/conformance\n\ngo 1.18\n' >"$SRC/go.mod"
cp "$OUTPUT_ROOT/go/coprocess.go" "$SRC/mcptest/coprocess.go"
cp "$BENCH" "$SRC/main.go"
(cd "$SRC" && "$GO" vet . && "$GO" build -o "$WORK/bench-constrained" .)
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$WORK/bench-constrained"
