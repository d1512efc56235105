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
# vet, then builds it with OUTPUT_ROOT's coprocess.go and runs it.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
[ $# -ge 2 ] || { echo "usage: $0 OUTPUT_ROOT PROBES [REPEATS]" >&2; exit 2; }
[ -f "$1/go/coprocess.go" ] || { echo "error: $1/go/coprocess.go does not exist" >&2; exit 1; }

WORK="$ROOT/target/conformance/go"
mkdir -p "$WORK"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod GOPATH="$ROOT/target/toolchains/gopath" GOCACHE="$WORK/cache"
GO="$(command -v go || true)"
[ -n "$GO" ] || GO="$(ls "$ROOT"/target/toolchains/go-*/bin/go | head -n 1)"
GOFMT="$(dirname "$GO")/gofmt"
[ -x "$GOFMT" ] || GOFMT="$("$GO" env GOROOT)/bin/gofmt"
BENCH="$HERE/bench-patterns/main.go"
if [ -n "$("$GOFMT" -l "$BENCH")" ]; then
  echo "FAIL ${BENCH#"$ROOT"/}: not gofmt-clean" >&2
  exit 1
fi
SRC="$WORK/bench-patterns-src"
rm -rf "$SRC" && mkdir -p "$SRC/mcptest"
printf 'module mcptest.local/conformance\n\ngo 1.18\n' >"$SRC/go.mod"
cp "$1/go/coprocess.go" "$SRC/mcptest/coprocess.go"
cp "$BENCH" "$SRC/main.go"
(cd "$SRC" && "$GO" vet . && "$GO" build -o "$WORK/bench-patterns" .) >&2
exec "$WORK/bench-patterns" "$2" "${3:-3}"
