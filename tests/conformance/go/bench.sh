#!/usr/bin/env bash
# Decode throughput of the generated strict Go decoders vs json.Unmarshal into
# any, one markdown row per frame:
# | go | <frame> | <strict fr/s> | <plain fr/s> | <ratio plain/strict> |
# usage: tests/conformance/go/bench.sh [OUTPUT_ROOT]  (runs build.sh first)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
OUTPUT_ROOT="${1:-generated}"
case "$OUTPUT_ROOT" in /*) ;; *) OUTPUT_ROOT="$ROOT/$OUTPUT_ROOT" ;; esac
"$HERE/build.sh" "$OUTPUT_ROOT" >&2

WORK="$ROOT/target/conformance/go"
export GOTOOLCHAIN=local GOFLAGS="-mod=mod -trimpath" GOPATH="$ROOT/target/toolchains/gopath" GOCACHE="${GOCACHE_OVERRIDE:-$ROOT/target/go-cache}"
GO="$(command -v go || true)"
[ -n "$GO" ] || GO="$(ls "$ROOT"/target/toolchains/go-*/bin/go | head -n 1)"
SRC="$WORK/bench-src"
rm -rf "$SRC" && mkdir -p "$SRC/mcptest"
printf 'module mcptest.local/conformance\n\ngo 1.18\n' >"$SRC/go.mod"
cp "$OUTPUT_ROOT/go/coprocess.go" "$SRC/mcptest/coprocess.go"
cp "$HERE/bench/main.go" "$SRC/main.go"
(cd "$SRC" && "$GO" build -o "$WORK/bench" .)
echo "| target | frame | strict fr/s | plain fr/s | plain/strict |"
echo "|---|---|---|---|---|"
"$WORK/bench"
