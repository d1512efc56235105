#!/usr/bin/env bash
# The Go session client's own CPU per call next to a raw write-a-line/
# read-a-line loop's, and its resident set (see bench/main.go); the report
# also goes to target/client_bench/go.txt.
#   tests/client_conformance/go/bench.sh [CALLS [ROUNDS]]   (default 100000, 5)
# Builds bench/main.go with generated/go/{coprocess,client}.go (the Go
# toolchain build.sh finds) into target/client_conformance/go/bench.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
state="$root/target/client_conformance/go"
export GOTOOLCHAIN=local GOFLAGS="-mod=mod -trimpath" GOPATH="$root/target/toolchains/gopath"
export GOCACHE="${GOCACHE_OVERRIDE:-$root/target/go-cache}"
go="$(command -v go || ls "$root"/target/toolchains/go-*/bin/go 2>/dev/null | head -n 1)"
[ -n "$go" ] || { echo "no Go toolchain: run tests/client_conformance/go/build.sh first" >&2; exit 3; }
src="$state/bench-src"
rm -rf "$src" && mkdir -p "$src/mcptest"
printf 'module mcptest.local/client_bench\n\ngo 1.18\n' >"$src/go.mod"
cp "$root/generated/go/coprocess.go" "$root/generated/go/client.go" "$src/mcptest/"
cp "$here/bench/main.go" "$src/main.go"
(cd "$src" && "$go" vet ./... && "$go" build -trimpath -o "$state/bench" .)
# The echo coprocess starts through its #!/usr/bin/env python3 line: the
# interpreter's own folder first on PATH (see run.sh).
if python="$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)" && [ -n "$python" ]; then
  export PATH="$(dirname "$python"):$PATH"
fi
mkdir -p "$root/target/client_bench"
"$state/bench" "$root/tests/client_conformance/echo_coprocess.py" "$@" | tee "$root/target/client_bench/go.txt"
